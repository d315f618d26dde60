import { Arg, Ctx, FieldResolver, ID, Mutation, Resolver, Root, Subscription } from 'type-graphql';
import type { SubscribeResolverData } from 'type-graphql';
import type { RunEntity } from '../run.entity';
import type { SessionEntity } from '../session.entity';
import type { ConversationContext } from './conversation.context';
import { subscribedSession } from './conversation.context';
import { failureError, valueOrThrow } from '../../../shared/graphql/errors';
import { notFoundFailure } from '../../../shared/errors';
import type { RunOutputChunk as RunOutputChunkRecord } from '../notifications';
import { revivePublishedRun } from '../conversation.topics';
import { Session } from './session.type';
import { Run, RunOutputChunk } from './run.type';
import { runOutputChunks } from './run-output.stream';

async function subscribeToRunUpdates({ args, context }: SubscribeResolverData<unknown, { sessionId: string }, ConversationContext>) {
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

/** The run's answer from its start; the run is looked up under the subscriber's account before anything is sent. */
async function subscribeToRunOutput({ args, context }: SubscribeResolverData<unknown, { runId: string }, ConversationContext>) {
  // Subscribed before the run is read, so that no batch falls between the two.
  const published = context.pubSub.subscribe('RUN_OUTPUT', args.runId)[Symbol.asyncIterator]();
  const run = await context.services.runs.findRun(context.viewer, args.runId).catch(async (error: unknown) => {
    await published.return?.();
    throw error;
  });
  if (!run) {
    await published.return?.();
    throw failureError(notFoundFailure('run', ['runId']));
  }
  const chunks = runOutputChunks(run, published, () => context.services.runs.findRun(context.viewer, run.id));
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    next: () => chunks.next(),
    async return(): Promise<IteratorResult<RunOutputChunk>> {
      // Ending the topic first lets a wait for the next batch finish, so the generator can end too.
      await published.return?.();
      await chunks.return(undefined);
      return { done: true, value: undefined };
    },
  };
}

@Resolver(() => Run)
export class RunResolver {
  @FieldResolver(() => String, {
    nullable: true,
    description:
      'The answer as produced so far while RUNNING; the whole answer once finished (also when CANCELLED: what was produced); null before any output.',
  })
  async output(@Root() run: RunEntity, @Ctx() ctx: ConversationContext): Promise<string | null> {
    // A run published by another process comes without its output, which can be long.
    if (run.output !== undefined) return run.output;
    return (await ctx.services.runs.findRun(ctx.viewer, run.id))?.output ?? null;
  }

  @FieldResolver(() => Session, { description: 'The session the run reports to.' })
  session(@Root() run: RunEntity, @Ctx() ctx: ConversationContext): Promise<SessionEntity> {
    return ctx.loaders.sessionById.load(run.sessionId).then((session) => session!);
  }

  @FieldResolver(() => Session, { nullable: true, description: 'For a delegated run, the child session doing the work.' })
  childSession(@Root() run: RunEntity, @Ctx() ctx: ConversationContext): Promise<SessionEntity | null> | null {
    return run.childSessionId ? ctx.loaders.sessionById.load(run.childSessionId) : null;
  }

  @Mutation(() => Run, {
    description:
      'Runs a FAILED run again (same id, same message; what it recorded stays). Any other status is refused with INVALID_INPUT, a run whose session was continued since with SESSION_CONTINUED (extensions.currentContinuationId names where the work went), an unknown run with NOT_FOUND.',
  })
  async retryRun(@Arg('runId', () => ID, { description: 'The FAILED run to queue again.' }) runId: string, @Ctx() ctx: ConversationContext): Promise<RunEntity> {
    return valueOrThrow(await ctx.services.runs.retryRun(ctx.viewer, runId));
  }

  @Mutation(() => Run, { description: 'Stops a QUEUED or RUNNING run: it becomes CANCELLED, and what it had produced is kept in the transcript.' })
  async cancelRun(@Arg('runId', () => ID, { description: 'The run to stop: QUEUED or RUNNING, of the viewer\'s account.' }) runId: string, @Ctx() ctx: ConversationContext): Promise<RunEntity> {
    return valueOrThrow(await ctx.services.runs.cancelRun(ctx.viewer, runId));
  }

  @Subscription(() => RunOutputChunk, {
    description: "The run's answer as it is produced, in order; completes when the run ends.",
    subscribe: subscribeToRunOutput,
  })
  runOutput(
    @Root() chunk: RunOutputChunkRecord,
    @Arg('runId', () => ID, { description: "The run to follow, of the viewer's account (another account's is NOT_FOUND)." }) _runId: string,
  ): RunOutputChunkRecord {
    return chunk;
  }

  @Subscription(() => Run, {
    description:
      "Every change of a run that reports to the session: queued, started, settled, retried, or transferred to it by a continuation (then it keeps its id).",
    subscribe: subscribeToRunUpdates,
  })
  runUpdated(@Root() run: RunEntity, @Ctx() ctx: ConversationContext, @Arg('sessionId', () => ID, { description: "The session whose runs to follow (NOT_FOUND for another account's, before anything is sent)." }) _sessionId: string): RunEntity {
    ctx.refreshLoaders();
    return run;
  }
}
