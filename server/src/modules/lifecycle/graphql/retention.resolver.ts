import { Arg, Ctx, FieldResolver, Int, Mutation, Resolver, Root } from 'type-graphql';
import { valueOrThrow } from '../../../shared/graphql/errors';
import { Account } from '../../accounts/account.type';
import type { LifecycleContext } from '../lifecycle.context';
import { RETENTION_DAYS_MAX } from '../retention/retention';

/** The account's retention period: a field lifecycle adds to Account, and the mutation that sets it. */
@Resolver(() => Account)
export class AccountRetentionResolver {
  @FieldResolver(() => Int, { nullable: true, description: 'Sessions whose lineage has had no new event for this many days are erased whole; null keeps everything.' })
  retentionDays(@Root() account: Account, @Ctx() ctx: LifecycleContext): Promise<number | null> {
    return ctx.services.retention.retentionDays(account.id);
  }

  @Mutation(() => Account, { description: "Sets the viewer's account's retention period (ADMIN scope); null keeps everything." })
  async setRetentionPolicy(
    @Arg('retentionDays', () => Int, { nullable: true, description: `Whole days from 1 to ${RETENTION_DAYS_MAX} after a lineage's last event; null keeps everything.` })
    retentionDays: number | null,
    @Ctx() ctx: LifecycleContext,
  ): Promise<Account> {
    const account = valueOrThrow(await ctx.services.retention.setRetentionPolicy(ctx.viewer, retentionDays ?? null));
    return { id: account.id, name: account.name };
  }
}
