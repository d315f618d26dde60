import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import type { PlanRevisionEntity } from './plan-revision.entity';
import type { Context } from '../../api/context';
import { valueOrThrow } from '../../shared/graphql/errors';
import { Plan, UpdatePlanInput } from './plan.type';

@Resolver(() => Plan)
export class PlanResolver {
  @Mutation(() => Plan, {
    description:
      "Writes the plan's next revision. INVALID_INPUT when expectedRevision is stale, SESSION_CONTINUED for a continued session.",
  })
  async updatePlan(@Arg('input', { description: 'The session, the expected revision and the whole plan.' }) input: UpdatePlanInput, @Ctx() ctx: Context): Promise<PlanRevisionEntity> {
    return valueOrThrow(await ctx.services.plans.updatePlan(ctx.viewer, input));
  }
}
