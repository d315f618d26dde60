import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { EventEntity } from '../../conversation/event.entity';
import { Event } from '../../conversation/graphql/event.type';
import type { LifecycleContext } from '../lifecycle.context';
import { ErasureReceipt } from './erasure.type';

/** The erasure behind an erased event: a field lifecycle adds to Event. */
@Resolver(() => Event)
export class EventErasureResolver {
  @FieldResolver(() => ErasureReceipt, { nullable: true, description: "The erasure that removed this event's content (who, when, why); null for an event in use." })
  async erasure(@Root() event: EventEntity, @Ctx() ctx: LifecycleContext): Promise<ErasureReceipt | null> {
    if (!event.erasedAt) return null;
    const receipts = await ctx.loaders.receiptsByErasedAt.load(new Date(event.erasedAt).toISOString());
    const found = receipts.find((receipt) => receipt.eventId === event.id || receipt.sessionIds.includes(event.sessionId));
    return found ? Object.assign(new ErasureReceipt(), found) : null;
  }
}
