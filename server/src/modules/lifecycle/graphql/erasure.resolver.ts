import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { ErrorCode } from '../../../shared/errors';
import { failureError, toPayload } from '../../../shared/graphql/errors';
import type { OperationError } from '../../../shared/graphql/operation-error.type';
import type { ErasureReceiptEntity } from '../erasure/erasure-receipt.entity';
import { RECEIPTS_PAGE_MAX } from '../erasure/erasure.service';
import type { LifecycleContext } from '../lifecycle.context';
import { EraseSessionInput, EraseSessionResult, ErasureReceipt, RedactEventResult } from './erasure.type';

const receipt = (entity: ErasureReceiptEntity) => Object.assign(new ErasureReceipt(), entity);

@Resolver(() => ErasureReceipt)
export class ErasureResolver {
  @Mutation(() => EraseSessionResult, {
    description:
      'Erases the content of a session, or of its whole lineage, for good (ADMIN scope): texts, data, attachments no longer linked, plans, handoffs and compiled contexts that carried it, search statistics. Ids, seq, edges, times and hashes stay, so that lineages and hash chains remain verifiable. A running turn of an erased session stops.',
  })
  async eraseSession(@Arg('input', { description: 'The session, the scope and the reason.' }) input: EraseSessionInput, @Ctx() ctx: LifecycleContext): Promise<ErasureReceipt | OperationError> {
    return toPayload(await ctx.services.erasures.eraseSession(ctx.viewer, input), receipt);
  }

  @Mutation(() => RedactEventResult, { description: "Erases one event's content (text, data, attachment links) and its replayed copies, keeping its neighbours, its place and its hash (ADMIN scope)." })
  async redactEvent(
    @Arg('eventId', () => ID, { description: "The event (NOT_FOUND for another account's)." }) eventId: string,
    @Arg('reason', { description: 'Why, as the receipt keeps it: 1 to 1,000 characters.' }) reason: string,
    @Ctx() ctx: LifecycleContext,
  ): Promise<ErasureReceipt | OperationError> {
    return toPayload(await ctx.services.erasures.redactEvent(ctx.viewer, eventId, reason), receipt);
  }

  @Query(() => [ErasureReceipt], { description: "Erasures of the viewer's account, newest first (ADMIN scope)." })
  async erasures(
    @Ctx() ctx: LifecycleContext,
    @Arg('first', () => Int, { nullable: true, description: `How many, from 1 to ${RECEIPTS_PAGE_MAX}; 20 when absent.` }) first?: number | null,
  ): Promise<ErasureReceipt[]> {
    const count = first ?? 20;
    if (count < 1 || count > RECEIPTS_PAGE_MAX) {
      const message = `first must be from 1 to ${RECEIPTS_PAGE_MAX}.`;
      throw failureError({ code: ErrorCode.INVALID_INPUT, message, details: [{ path: ['first'], message }] });
    }
    return (await ctx.services.erasures.receipts(ctx.viewer, count)).map(receipt);
  }
}
