import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { eventCursor } from '../event-window';
import { RunStatus } from '../runs';
import { SessionStatus } from '../sessions';
import type { RunEntity } from '../run.entity';
import type { SessionEntity } from '../session.entity';
import type { ConversationContext } from './conversation.context';
import { failureError, valueOrThrow } from '../../../shared/graphql/errors';
import { ErrorCode } from '../../../shared/errors';
import { MAX_PAGE_SIZE } from '../../../shared/pagination';
import { Run } from './run.type';
import { EventConnection } from './event.type';
import { CreateSessionInput, ForkSessionInput } from './session.input';
import { ContextUsage, Session, SessionConnection } from './session.type';
import { Event } from './event.type';
import type { EventEntity } from '../event.entity';
import { continuationAdvised } from '../context-usage';

@Resolver(() => Session)
export class SessionResolver {
  @Query(() => Session, { nullable: true, description: "One of the viewer's sessions; null when there is none with this id." })
  session(@Arg('id', () => ID, { description: "The session's id; an id that is no UUID finds nothing." }) id: string, @Ctx() ctx: ConversationContext): Promise<SessionEntity | null> {
    return ctx.services.sessions.findSession(ctx.viewer, id);
  }

  @Query(() => SessionConnection, { description: "The viewer's sessions, newest first." })
  async sessions(
    @Ctx() ctx: ConversationContext,
    @Arg('first', () => Int, { nullable: true, description: 'Page size, 0 to 100 (default 50).' }) first?: number,
    @Arg('after', () => String, { nullable: true, description: 'Cursor of the last session of the previous page.' })
    after?: string,
    @Arg('status', () => SessionStatus, { nullable: true, description: 'Only sessions with this status.' })
    status?: SessionStatus,
    @Arg('rootsOnly', () => Boolean, {
      nullable: true,
      description: 'Only sessions that start a lineage of their own (ROOT and FORK kinds).',
    })
    rootsOnly?: boolean,
  ): Promise<SessionConnection> {
    const page = valueOrThrow(await ctx.services.sessions.listSessions(ctx.viewer, { first, after, status, rootsOnly }));
    return {
      edges: page.sessions.map((node, index) => ({ node, cursor: page.cursors[index] })),
      pageInfo: {
        hasNextPage: page.hasNextPage,
        hasPreviousPage: page.hasPreviousPage,
        startCursor: page.cursors[0] ?? null,
        endCursor: page.cursors[page.cursors.length - 1] ?? null,
      },
      totalCount: page.totalCount,
    };
  }

  @Mutation(() => Session, { description: 'A new, empty ROOT session.' })
  async createSession(@Arg('input', { description: "The new session's title and description." }) input: CreateSessionInput, @Ctx() ctx: ConversationContext): Promise<SessionEntity> {
    return valueOrThrow(await ctx.services.sessions.createSession(ctx.viewer, input));
  }

  @Mutation(() => Session, {
    description: 'A FORK: an alternative path from an earlier event. Its history up to that event is referenced, not copied.',
  })
  async forkSession(@Arg('input', { description: "The event to fork from and the fork's title." }) input: ForkSessionInput, @Ctx() ctx: ConversationContext): Promise<SessionEntity> {
    return valueOrThrow(await ctx.services.sessions.forkSession(ctx.viewer, input));
  }

  @FieldResolver(() => Session, { nullable: true, description: 'For a CHILD session: the session that delegated work to it.' })
  parent(@Root() session: SessionEntity, @Ctx() ctx: ConversationContext): Promise<SessionEntity | null> | null {
    return session.parentId ? ctx.loaders.sessionById.load(session.parentId) : null;
  }

  @FieldResolver(() => [Session], { description: 'CHILD sessions doing delegated work for this one, oldest first.' })
  children(@Root() session: SessionEntity, @Ctx() ctx: ConversationContext): Promise<SessionEntity[]> {
    return ctx.loaders.childrenByParentId.load(session.id);
  }

  @FieldResolver(() => Event, { nullable: true, description: 'For a FORK: the last event it inherits.' })
  forkedFrom(@Root() session: SessionEntity, @Ctx() ctx: ConversationContext): Promise<EventEntity | null> | null {
    return session.forkedFromEventId ? ctx.loaders.eventById.load(session.forkedFromEventId) : null;
  }

  @FieldResolver(() => ContextUsage, { description: "How full the model's context is for the session's next turn." })
  async contextUsage(@Root() session: SessionEntity, @Ctx() ctx: ConversationContext): Promise<ContextUsage> {
    const usage = (await ctx.loaders.contextUsageBySessionId.load(session.id))!;
    return { ...usage, share: usage.tokens / usage.windowTokens };
  }

  @FieldResolver(() => Boolean, {
    description:
      "True when the transcript has grown past the share of the model's context window at which a continuation is advisable (evaluated between turns).",
  })
  async continuationSuggested(@Root() session: SessionEntity, @Ctx() ctx: ConversationContext): Promise<boolean> {
    const usage = await ctx.loaders.contextUsageBySessionId.load(session.id);
    return session.status === SessionStatus.ACTIVE && usage !== null && continuationAdvised(usage);
  }

  @FieldResolver(() => [Run], { description: "The session's runs, oldest first." })
  runs(
    @Root() session: SessionEntity,
    @Ctx() ctx: ConversationContext,
    @Arg('status', () => RunStatus, { nullable: true, description: 'Only runs with this status.' }) status?: RunStatus,
    @Arg('last', () => Int, { nullable: true, description: 'Only the newest this many (0 to 100), still oldest first.' }) last?: number,
  ): Promise<RunEntity[]> {
    if (last != null && (last < 0 || last > MAX_PAGE_SIZE)) {
      throw failureError({
        code: ErrorCode.INVALID_INPUT,
        message: `last must be from 0 to ${MAX_PAGE_SIZE}.`,
        details: [{ path: ['last'], message: `Got ${last}.` }],
      });
    }
    return ctx.loaders.runsOfSession.load({ sessionId: session.id, status: status ?? null, last: last ?? null });
  }

  @FieldResolver(() => EventConnection, {
    description:
      'Immutable transcript, oldest first. Keyset pagination on seq: first/after or last/before (at most 100 per page, default first 50); fromSeq/toSeq bound an exact inclusive range.',
  })
  async events(
    @Root() session: SessionEntity,
    @Ctx() ctx: ConversationContext,
    @Arg('first', () => Int, { nullable: true, description: 'Page size from the start, or after `after` (0 to 100; default 50). Not with last.' }) first?: number,
    @Arg('after', () => String, { nullable: true, description: 'An event cursor: the page starts after that event.' }) after?: string,
    @Arg('last', () => Int, { nullable: true, description: 'Page size from the end, or before `before` (0 to 100). Not with first.' }) last?: number,
    @Arg('before', () => String, { nullable: true, description: 'An event cursor: the page ends before that event.' }) before?: string,
    @Arg('fromSeq', () => Int, { nullable: true, description: 'Lowest seq of the range to page through (1 or more).' }) fromSeq?: number,
    @Arg('toSeq', () => Int, { nullable: true, description: 'Highest seq of the range to page through, inclusive (1 or more).' }) toSeq?: number,
  ): Promise<EventConnection> {
    const { events, window } = valueOrThrow(
      await ctx.services.transcript.eventsPage(session, { first, after, last, before, fromSeq, toSeq }),
    );
    return {
      edges: events.map((node) => ({ node, cursor: eventCursor(node.seq) })),
      pageInfo: {
        hasNextPage: window.hasNextPage,
        hasPreviousPage: window.hasPreviousPage,
        startCursor: events.length ? eventCursor(events[0].seq) : null,
        endCursor: events.length ? eventCursor(events[events.length - 1].seq) : null,
      },
      totalCount: window.totalCount,
    };
  }
}
