import { Arg, Ctx, FieldResolver, Mutation, Resolver, Root } from 'type-graphql';
import type { PlanRevisionEntity } from './plan-revision.entity';
import type { PlansContext } from './plans.context';
import { valueOrThrow } from '../../shared/graphql/errors';
import type { SessionEntity } from '../conversation/session.entity';
import { Session } from '../conversation/graphql/session.type';
import { Plan, UpdatePlanInput } from './plan.type';

@Resolver(() => Plan)
export class PlanResolver {
  @Mutation(() => Plan, {
    description:
      "Writes the plan's next revision. INVALID_INPUT when expectedRevision is stale, SESSION_CONTINUED for a continued session.",
  })
  async updatePlan(@Arg('input', { description: 'The session, the expected revision and the whole plan.' }) input: UpdatePlanInput, @Ctx() ctx: PlansContext): Promise<PlanRevisionEntity> {
    return valueOrThrow(await ctx.services.plans.updatePlan(ctx.viewer, input));
  }
}

/** The plan a session holds: a field the plans module adds to the conversation's Session. */
@Resolver(() => Session)
export class SessionPlanResolver {
  @FieldResolver(() => Plan, { nullable: true, description: "The plan's newest revision; null when the session has none." })
  plan(@Root() session: SessionEntity, @Ctx() ctx: PlansContext): Promise<PlanRevisionEntity | null> {
    return ctx.loaders.planBySessionId.load(session.id);
  }
}
