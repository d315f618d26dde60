import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { eventCursor } from '../../domain/event-window';
import { SessionStatus } from '../../domain/sessions';
import type { SessionEntity } from '../../db/entities/session.entity';
import type { Context } from '../context';
import { valueOrThrow } from '../errors';
import { EventConnection } from '../transcript/event.type';
import { CreateSessionInput } from './session.input';
import { Session, SessionConnection } from './session.type';

@Resolver(() => Session)
export class SessionResolver {
  @Query(() => Session, { nullable: true, description: "One of the viewer's sessions; null when there is none with this id." })
  session(@Arg('id', () => ID) id: string, @Ctx() ctx: Context): Promise<SessionEntity | null> {
    return ctx.services.sessions.findSession(ctx.viewer, id);
  }

  @Query(() => SessionConnection, { description: "The viewer's sessions, newest first." })
  async sessions(
    @Ctx() ctx: Context,
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
  async createSession(@Arg('input') input: CreateSessionInput, @Ctx() ctx: Context): Promise<SessionEntity> {
    return valueOrThrow(await ctx.services.sessions.createSession(ctx.viewer, input));
  }

  @FieldResolver(() => EventConnection, {
    description:
      'Immutable transcript, oldest first. Keyset pagination on seq: first/after or last/before (at most 100 per page, default first 50); fromSeq/toSeq bound an exact inclusive range.',
  })
  async events(
    @Root() session: SessionEntity,
    @Ctx() ctx: Context,
    @Arg('first', () => Int, { nullable: true }) first?: number,
    @Arg('after', () => String, { nullable: true }) after?: string,
    @Arg('last', () => Int, { nullable: true }) last?: number,
    @Arg('before', () => String, { nullable: true }) before?: string,
    @Arg('fromSeq', () => Int, { nullable: true }) fromSeq?: number,
    @Arg('toSeq', () => Int, { nullable: true }) toSeq?: number,
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
