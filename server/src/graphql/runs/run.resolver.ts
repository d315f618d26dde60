import { Arg, Ctx, FieldResolver, ID, Mutation, Resolver, Root, Subscription } from 'type-graphql';
import type { SubscribeResolverData } from 'type-graphql';
import type { RunEntity } from '../../db/entities/run.entity';
import type { SessionEntity } from '../../db/entities/session.entity';
import { Context, freshLoaders, subscribedSession } from '../context';
import { valueOrThrow } from '../errors';
import { revivePublishedRun } from '../pubsub';
import { Session } from '../sessions/session.type';
import { Run } from './run.type';

async function subscribeToRunUpdates({ args, context }: SubscribeResolverData<unknown, { sessionId: string }, Context>) {
  const session = await subscribedSession(context, args.sessionId);
  const published = context.pubSub.subscribe('RUN_UPDATED', session.id)[Symbol.asyncIterator]();
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next(): Promise<IteratorResult<RunEntity>> {
      const next = await published.next();
      return next.done ? { done: true, value: undefined } : { done: false, value: revivePublishedRun(next.value) };
    },
    async return(): Promise<IteratorResult<RunEntity>> {
      await published.return?.();
      return { done: true, value: undefined };
    },
  };
}

@Resolver(() => Run)
export class RunResolver {
  @FieldResolver(() => Session, { description: 'The session the run reports to.' })
  session(@Root() run: RunEntity, @Ctx() ctx: Context): Promise<SessionEntity> {
    return ctx.loaders.sessionById.load(run.sessionId).then((session) => session!);
  }

  @FieldResolver(() => Session, { nullable: true, description: 'For a delegated run, the child session doing the work.' })
  childSession(@Root() run: RunEntity, @Ctx() ctx: Context): Promise<SessionEntity | null> | null {
    return run.childSessionId ? ctx.loaders.sessionById.load(run.childSessionId) : null;
  }

  @Mutation(() => Run, {
    description:
      'Runs a FAILED run again (same id, same message; what it recorded stays). Any other status is refused with INVALID_INPUT, a run whose session was continued since with SESSION_CONTINUED (extensions.currentContinuationId names where the work went), an unknown run with NOT_FOUND.',
  })
  async retryRun(@Arg('runId', () => ID, { description: 'The FAILED run to queue again.' }) runId: string, @Ctx() ctx: Context): Promise<RunEntity> {
    return valueOrThrow(await ctx.services.runs.retryRun(ctx.viewer, runId));
  }

  @Subscription(() => Run, {
    description:
      "Every change of a run that reports to the session: queued, started, settled, retried, or transferred to it by a continuation (then it keeps its id).",
    subscribe: subscribeToRunUpdates,
  })
  runUpdated(@Root() run: RunEntity, @Ctx() ctx: Context, @Arg('sessionId', () => ID, { description: "The session whose runs to follow (NOT_FOUND for another account's, before anything is sent)." }) _sessionId: string): RunEntity {
    freshLoaders(ctx);
    return run;
  }
}
