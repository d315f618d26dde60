import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import type { SubscribeResolverData } from 'type-graphql';
import { ErrorCode } from '../../../shared/errors';
import type { EventEntity } from '../event.entity';
import type { SessionEntity } from '../session.entity';
import type { ConversationContext } from './conversation.context';
import { subscribedSession } from './conversation.context';
import { failureError, toPayload, valueOrThrow } from '../../../shared/graphql/errors';
import { revivePublishedEvent } from '../conversation.topics';
import { Session } from './session.type';
import { Attachment } from '../../attachments/attachment.type';
import type { AttachmentEntity } from '../../attachments/attachment.entity';
import { Event } from './event.type';
import { PostMessageInput } from './message.input';
import { PostMessageResult, PostMessageSuccess } from './message.type';

async function subscribeToSessionEvents({
  args,
  context,
}: SubscribeResolverData<unknown, { sessionId: string; afterSeq?: number | null }, ConversationContext>) {
  if (args.afterSeq != null && args.afterSeq < 0) {
    throw failureError({
      code: ErrorCode.INVALID_INPUT,
      message: 'afterSeq must not be negative.',
      details: [{ path: ['afterSeq'], message: 'afterSeq must not be negative.' }],
    });
  }
  const session = await subscribedSession(context, args.sessionId);
  const published = context.pubSub.subscribe('SESSION_EVENT', session.id)[Symbol.asyncIterator]();
  const live: AsyncIterator<EventEntity> = {
    next: async () => {
      const next = await published.next();
      return next.done ? { done: true, value: undefined } : { done: false, value: revivePublishedEvent(next.value) };
    },
    return: async () => {
      await published.return?.();
      return { done: true, value: undefined };
    },
  };
  return context.services.transcript.followSession(session, args.afterSeq ?? null, live);
}

@Resolver(() => Event)
export class EventResolver {
  @Query(() => Event, { nullable: true, description: "One of the viewer's events; null when there is none with this id." })
  event(@Arg('id', () => ID, { description: "The event's id; an id that is no UUID finds nothing." }) id: string, @Ctx() ctx: ConversationContext): Promise<EventEntity | null> {
    return ctx.services.transcript.findEvent(ctx.viewer, id);
  }

  @Query(() => [Event], {
    description:
      'Exact recall: the events from fromEventId to toEventId inclusive, of one session (at most 1,000; NOT_FOUND for events of another session).',
  })
  async eventRange(
    @Arg('sessionId', () => ID, { description: "The session both events belong to (NOT_FOUND for another account's)." }) sessionId: string,
    @Arg('fromEventId', () => ID, { description: 'The first event of the range.' }) fromEventId: string,
    @Arg('toEventId', () => ID, { description: 'The last event of the range, inclusive; INVALID_INPUT when it comes before fromEventId.' }) toEventId: string,
    @Ctx() ctx: ConversationContext,
    @Arg('recallFor', () => ID, {
      nullable: true,
      description: "A manifest of the reader's lineage: counts this read as a recall of the item it left out with exactly these bounds.",
    })
    recallFor?: string,
  ): Promise<EventEntity[]> {
    const events = valueOrThrow(await ctx.services.transcript.eventRange(ctx.viewer, sessionId, fromEventId, toEventId));
    if (recallFor != null) {
      valueOrThrow(await ctx.services.recalls.recordRecall(ctx.viewer, recallFor, { kind: 'EVENTS', sessionId, fromEventId, toEventId }));
    }
    return events;
  }

  @Mutation(() => PostMessageResult, {
    description: 'Appends a USER_MESSAGE. Expected failures (bad input, unknown session) are an OperationError.',
  })
  async postMessage(@Arg('input', { description: 'The session, the text and how to treat a continued session.' }) input: PostMessageInput, @Ctx() ctx: ConversationContext): Promise<typeof PostMessageResult> {
    const outcome = await ctx.services.transcript.postMessage(ctx.viewer, input);
    return toPayload(outcome, ({ event, session, run }) => PostMessageSuccess.of(event, session, run));
  }

  @Subscription(() => Event, {
    description:
      "Events appended to the session's transcript, in seq order, without gaps or repeats. With afterSeq, first every event after that seq (resume after a reconnect), then live ones.",
    subscribe: subscribeToSessionEvents,
  })
  sessionEvents(
    @Root() event: EventEntity,
    @Ctx() ctx: ConversationContext,
    @Arg('sessionId', () => ID, { description: "The session to follow (NOT_FOUND for another account's, before anything is sent)." }) _sessionId: string,
    @Arg('afterSeq', () => Int, { nullable: true, description: 'Replay events with a greater seq first (0: the whole transcript).' })
    _afterSeq?: number,
  ): EventEntity {
    ctx.refreshLoaders();
    return event;
  }

  @FieldResolver(() => Session, { description: 'The session whose transcript holds the event.' })
  async session(@Root() event: EventEntity, @Ctx() ctx: ConversationContext): Promise<SessionEntity> {
    const session = await ctx.loaders.sessionById.load(event.sessionId);
    if (!session) throw new Error(`Event ${event.id} has no session in its account`);
    return session;
  }

  @FieldResolver(() => [Attachment], {
    description: 'Files attached to this message, linked by content id (a replayed message links the same ones, never copies).',
  })
  async attachments(@Root() event: EventEntity, @Ctx() ctx: ConversationContext): Promise<AttachmentEntity[]> {
    if (event.attachmentCids.length === 0) return [];
    const found = await ctx.loaders.attachmentByCid.loadMany(event.attachmentCids);
    return found.map((attachment, index) => {
      // Attachments are never deleted and a message links only its account's: a gap is a fault.
      if (!attachment || attachment instanceof Error) throw attachment ?? new Error(`Event ${event.id} links a missing attachment ${event.attachmentCids[index]}`);
      return attachment;
    });
  }

  @FieldResolver(() => Event, {
    nullable: true,
    description: 'In a successor, the exact initiating user message replayed from its predecessor points back to it.',
  })
  replayOf(@Root() event: EventEntity, @Ctx() ctx: ConversationContext): Promise<EventEntity | null> | null {
    return event.replayOfId ? ctx.loaders.eventById.load(event.replayOfId) : null;
  }
}
