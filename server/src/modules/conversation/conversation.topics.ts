import type { TopicPubSub } from '../../platform/pubsub/topic-pub-sub';
import { EntityManager, MoreThanOrEqual } from 'typeorm';
import type { TopicCodec } from '../../platform/pubsub/payload-codec';
import { isId } from '../../shared/ids';
import { EventEntity } from './event.entity';
import { RunEntity } from './run.entity';
import { RunStatus } from './runs';
import { SessionEntity } from './session.entity';
import type { ConversationNotifier, RunOutputChunk } from './notifications';

/** An event as published: `createdAt` may arrive as an ISO string after crossing a process. */
export type PublishedEvent = Omit<EventEntity, 'createdAt'> & { createdAt: Date | string };

/** A run as published; its dates may arrive as ISO strings after crossing a process. */
export type PublishedRun = Omit<RunEntity, 'createdAt' | 'updatedAt'> & { createdAt: Date | string; updatedAt: Date | string };

/**
 * A batch of a run's answer, or the news that the run ended (its output is then whole), with the
 * whole answer's length when the publisher knew it: a stream that delivered that much is done.
 */
export type PublishedRunOutput = RunOutputChunk | { runId: string; ended: true; length?: number };

/** The news that a run ended, with its answer's length when the record holds its output. */
function runEnded(run: Pick<RunEntity, 'id' | 'output'>): PublishedRunOutput {
  return typeof run.output === 'string' || run.output === null ? { runId: run.id, ended: true, length: run.output?.length ?? 0 } : { runId: run.id, ended: true };
}

/**
 * The conversation's topics. Payloads are plain JSON-safe records so that an event target that
 * crosses processes (Redis or PostgreSQL LISTEN/NOTIFY) can replace the in-memory one unchanged.
 */
export type ConversationTopics = {
  SESSION_EVENT: [sessionId: string, event: PublishedEvent];
  /** Keyed by the session the run reports to. */
  RUN_UPDATED: [sessionId: string, run: PublishedRun];
  /** Keyed by the run's id: its answer as produced, then that it ended. */
  RUN_OUTPUT: [runId: string, output: PublishedRunOutput];
};

/** A run's output is whole once it settled and no worker holds it (a cancelled run's worker still records what it produced). */
export function outputEnded(run: Pick<RunEntity, 'status' | 'leaseOwner'>): boolean {
  return (run.status === RunStatus.SUCCEEDED || run.status === RunStatus.FAILED || run.status === RunStatus.CANCELLED) && run.leaseOwner === null;
}

const revived = new WeakMap<object, EventEntity | RunEntity>();

/**
 * A record back from the pub/sub, revived once: every subscriber of a publish gets the same
 * object, so that its results can be shared between them.
 */
function reviveOnce<T extends EventEntity | RunEntity>(published: object, revive: () => T): T {
  let record = revived.get(published) as T | undefined;
  if (!record) {
    record = revive();
    revived.set(published, record);
  }
  return record;
}

/** An event record back from the pub/sub, with its dates as Date objects again. */
export function revivePublishedEvent(event: PublishedEvent): EventEntity {
  return reviveOnce(event, () => ({ ...event, createdAt: new Date(event.createdAt) }) as EventEntity);
}

/** A run record back from the pub/sub, with its dates as Date objects again. */
export function revivePublishedRun(run: PublishedRun): RunEntity {
  return reviveOnce(run, () => ({ ...run, createdAt: new Date(run.createdAt), updatedAt: new Date(run.updatedAt) }) as RunEntity);
}

/** The conversation's notifier, publishing to its topics. */
export function conversationPublisher(pubSub: TopicPubSub<ConversationTopics>): ConversationNotifier {
  return {
    eventsAppended(events) {
      for (const event of events) pubSub.publish('SESSION_EVENT', event.sessionId, event);
    },
    runsChanged(runs) {
      for (const run of runs) {
        pubSub.publish('RUN_UPDATED', run.sessionId, run);
        if (outputEnded(run)) pubSub.publish('RUN_OUTPUT', run.id, runEnded(run));
      }
    },
    runOutputAppended(chunk) {
      pubSub.publish('RUN_OUTPUT', chunk.runId, chunk);
    },
  };
}

const isDate = (value: unknown) => (typeof value === 'string' || value instanceof Date) && !Number.isNaN(new Date(value).getTime());
const isIdString = (value: unknown) => typeof value === 'string' && isId(value);

/**
 * How the conversation's topics cross processes. A transcript event, which can be large (its
 * text), travels as its identity and is read back from the database where someone subscribes to
 * it; runs travel without their output. After a reconnect, a transcript stream is handed its
 * session's last event (it reads every event it missed up to it), and runs are read again as they
 * are now.
 */
export function conversationTopicCodecs(manager: EntityManager): Record<keyof ConversationTopics, TopicCodec> {
  return {
    SESSION_EVENT: {
      wellShaped: (record) => isIdString(record.id),
      compact(detail) {
        const { id, sessionId, seq } = detail as PublishedEvent;
        return { id, sessionId, seq };
      },
      restore: (compacted) => manager.findOneBy(EventEntity, { id: (compacted as { id: string }).id }),
      async missedSince(sessionId) {
        const session = await manager.findOneBy(SessionEntity, { id: sessionId });
        const latest = session && session.eventCount > 0 ? await manager.findOneBy(EventEntity, { sessionId, seq: session.eventCount }) : null;
        return latest ? [latest] : [];
      },
      identity: (detail) => (detail as { id: string }).id,
    },
    RUN_UPDATED: {
      wellShaped: (record) =>
        isIdString(record.id) && isIdString(record.sessionId) && typeof record.status === 'string' && isDate(record.createdAt) && isDate(record.updatedAt),
      // A run's output can be long: whoever resolves Run.output for a run that crossed without it reads it.
      compact: (detail) => ({ ...(detail as PublishedRun), output: undefined }),
      missedSince: (sessionId, since) =>
        manager.find(RunEntity, { where: { sessionId, updatedAt: MoreThanOrEqual(since) }, order: { updatedAt: 'ASC', id: 'ASC' } }),
      identity(detail) {
        // A run is delivered again only in a state not delivered yet.
        const run = detail as PublishedRun;
        return `${run.id}:${run.status}:${run.attempt}:${new Date(run.updatedAt).toISOString()}`;
      },
    },
    RUN_OUTPUT: {
      wellShaped: (record) => isIdString(record.runId) && (record.ended === true || (Number.isInteger(record.offset) && typeof record.text === 'string')),
      async missedSince(runId) {
        // The output so far from its start: a stream passes on only what it has not delivered.
        const run = await manager.findOneBy(RunEntity, { id: runId });
        if (!run) return [];
        const chunk: RunOutputChunk = { runId: run.id, offset: 0, text: run.output ?? '' };
        return outputEnded(run) ? [chunk, runEnded(run)] : [chunk];
      },
      identity(detail) {
        const output = detail as PublishedRunOutput;
        return 'ended' in output ? 'ended' : `${output.offset}:${output.text.length}`;
      },
    },
  };
}
