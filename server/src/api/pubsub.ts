import { createPubSub, PubSubEventTarget } from '@graphql-yoga/subscription';
import type { ContinuationEdgeEntity } from '../modules/continuation/continuation-edge.entity';
import type { ContinuationProposalEntity } from '../modules/continuation/approval/continuation-proposal.entity';
import type { EventEntity } from '../modules/conversation/event.entity';
import type { RunEntity } from '../modules/conversation/run.entity';
import type { PublishedRecords } from '../modules/conversation/delivery.repository';
import { isId } from '../shared/ids';
import { RunStatus } from '../modules/conversation/runs';
import type { ChangeNotifier, RunOutputChunk } from '../modules/conversation/notifications';
import type { PayloadCodec } from '../platform/pubsub/postgres-event-target';
import { logger } from '../platform/observability/logger';

/** A continuation as published: ids only, resolved again by each subscriber under its own account. */
export interface PublishedContinuation {
  edgeId: string;
  predecessorId: string;
  successorId: string;
}

/** A proposal as published: its identity and status; each subscriber reads it again under its own account. */
export interface PublishedProposal {
  id: string;
  sessionId: string;
  status: string;
}

/**
 * Typed topics. Payloads are plain JSON-safe records so that an event target that crosses
 * processes (e.g. Redis or PostgreSQL LISTEN/NOTIFY) can replace the in-memory one unchanged.
 */
export type Topics = {
  SESSION_EVENT: [sessionId: string, event: PublishedEvent];
  /** Keyed by the predecessor's id. */
  SESSION_CONTINUED: [predecessorId: string, continuation: PublishedContinuation];
  /** Keyed by the account's id. */
  ACCOUNT_CONTINUED: [accountId: string, continuation: PublishedContinuation];
  /** Keyed by the session the run reports to. */
  RUN_UPDATED: [sessionId: string, run: PublishedRun];
  /** Keyed by the run's id: its answer as produced, then that it ended. */
  RUN_OUTPUT: [runId: string, output: PublishedRunOutput];
  /** Keyed by the proposal's session. */
  CONTINUATION_PROPOSAL: [sessionId: string, proposal: PublishedProposal];
};

/** A batch of a run's answer, or the news that the run ended (its output is then whole). */
export type PublishedRunOutput = RunOutputChunk | { runId: string; ended: true };

/** An event as published: `createdAt` may arrive as an ISO string after crossing a process. */
export type PublishedEvent = Omit<EventEntity, 'createdAt'> & { createdAt: Date | string };

/** A run as published; its dates may arrive as ISO strings after crossing a process. */
export type PublishedRun = Omit<RunEntity, 'createdAt' | 'updatedAt'> & { createdAt: Date | string; updatedAt: Date | string };

/** An in-process event target that also tells how many listeners each topic has. */
export class CountingEventTarget extends EventTarget {
  private readonly listeners = new Map<string, number>();

  addEventListener(...args: Parameters<EventTarget['addEventListener']>): void {
    this.listeners.set(args[0], (this.listeners.get(args[0]) ?? 0) + 1);
    super.addEventListener(...args);
  }

  removeEventListener(...args: Parameters<EventTarget['removeEventListener']>): void {
    // A topic nobody listens to any more is forgotten: the map holds only topics with listeners.
    const remaining = (this.listeners.get(args[0]) ?? 0) - 1;
    if (remaining > 0) this.listeners.set(args[0], remaining);
    else this.listeners.delete(args[0]);
    super.removeEventListener(...args);
  }

  /** The event types something listens to now. */
  protected listenedTypes(): string[] {
    return [...this.listeners].filter(([, count]) => count > 0).map(([type]) => type);
  }

  /** Whether anything listens to one event type, e.g. `SESSION_CONTINUED:<sessionId>`. */
  protected hasListeners(type: string): boolean {
    return (this.listeners.get(type) ?? 0) > 0;
  }

  /** Listeners of one topic and id, e.g. `listenerCount('SESSION_CONTINUED', sessionId)`. */
  listenerCount(topic: keyof Topics, id: string): number {
    return this.listeners.get(`${topic}:${id}`) ?? 0;
  }
}

export type AppPubSub = ReturnType<typeof createPubSub<Topics>>;

/** The pub/sub of one server; pass an event target that crosses processes to share it between them. */
export function createAppPubSub(eventTarget: EventTarget = new CountingEventTarget()): AppPubSub {
  return createPubSub<Topics>({ eventTarget: eventTarget as PubSubEventTarget<Topics> });
}

function publishedProposal(proposal: ContinuationProposalEntity): PublishedProposal {
  return { id: proposal.id, sessionId: proposal.sessionId, status: proposal.status };
}

/** A continuation as its topics publish it. */
function publishedContinuation(edge: ContinuationEdgeEntity): PublishedContinuation {
  return { edgeId: edge.id, predecessorId: edge.predecessorId, successorId: edge.successorId };
}

/** The services' notifier, publishing to the GraphQL subscriptions' topics. */
export function pubSubNotifier(pubSub: AppPubSub): ChangeNotifier {
  return {
    eventsAppended(events) {
      for (const event of events) pubSub.publish('SESSION_EVENT', event.sessionId, event);
    },
    sessionContinued(edge: ContinuationEdgeEntity) {
      const continuation = publishedContinuation(edge);
      pubSub.publish('SESSION_CONTINUED', edge.predecessorId, continuation);
      pubSub.publish('ACCOUNT_CONTINUED', edge.accountId, continuation);
    },
    runsChanged(runs) {
      for (const run of runs) {
        pubSub.publish('RUN_UPDATED', run.sessionId, run);
        if (outputEnded(run)) pubSub.publish('RUN_OUTPUT', run.id, { runId: run.id, ended: true });
      }
    },
    runOutputAppended(chunk) {
      pubSub.publish('RUN_OUTPUT', chunk.runId, chunk);
    },
    proposalsChanged(proposals) {
      for (const proposal of proposals) pubSub.publish('CONTINUATION_PROPOSAL', proposal.sessionId, publishedProposal(proposal));
    },
  };
}

/** A run's output is whole once it settled and no worker holds it (a cancelled run's worker still records what it produced). */
export function outputEnded(run: Pick<RunEntity, 'status' | 'leaseOwner'>): boolean {
  return (run.status === RunStatus.SUCCEEDED || run.status === RunStatus.FAILED || run.status === RunStatus.CANCELLED) && run.leaseOwner === null;
}

/** An event record back from the pub/sub, with its dates as Date objects again. */
export function revivePublishedEvent(event: PublishedEvent): EventEntity {
  return { ...event, createdAt: new Date(event.createdAt) } as EventEntity;
}

/** A run record back from the pub/sub, with its dates as Date objects again. */
export function revivePublishedRun(run: PublishedRun): RunEntity {
  return { ...run, createdAt: new Date(run.createdAt), updatedAt: new Date(run.updatedAt) } as RunEntity;
}

const isDate = (value: unknown) => (typeof value === 'string' || value instanceof Date) && !Number.isNaN(new Date(value).getTime());
const isIdString = (value: unknown) => typeof value === 'string' && isId(value);

/** Whether a record that crossed processes has the shape its topic publishes; another process could send anything. */
function wellShaped(topic: string, detail: unknown): boolean {
  if (typeof detail !== 'object' || detail === null) return false;
  const record = detail as Record<string, unknown>;
  switch (topic) {
    case 'SESSION_EVENT':
      return isIdString(record.id);
    case 'SESSION_CONTINUED':
    case 'ACCOUNT_CONTINUED':
      return isIdString(record.edgeId) && isIdString(record.predecessorId) && isIdString(record.successorId);
    case 'RUN_UPDATED':
      return isIdString(record.id) && isIdString(record.sessionId) && typeof record.status === 'string' && isDate(record.createdAt) && isDate(record.updatedAt);
    case 'RUN_OUTPUT':
      return isIdString(record.runId) && (record.ended === true || (Number.isInteger(record.offset) && typeof record.text === 'string'));
    case 'CONTINUATION_PROPOSAL':
      return isIdString(record.id) && isIdString(record.sessionId) && typeof record.status === 'string';
    default:
      return false;
  }
}

/** `SESSION_EVENT:<id>` as its topic and id. */
function topicOf(type: string): [topic: string, id: string] {
  const colon = type.indexOf(':');
  return [type.slice(0, colon), type.slice(colon + 1)];
}

/**
 * How publishes cross processes. A transcript event, which can be large (its text), travels as
 * its identity and is read back from the database where someone subscribes to it; the other
 * records travel whole. After a reconnect, a transcript stream is handed its session's last event
 * (it reads every event it missed up to it), and runs and continuations are read again as they
 * are now.
 */
export function crossProcessCodec(records: PublishedRecords): PayloadCodec {
  return {
    compact(type, detail) {
      const topic = topicOf(type)[0];
      // A run's output can be long: whoever resolves Run.output for a run that crossed without it reads it.
      if (topic === 'RUN_UPDATED') return { ...(detail as PublishedRun), output: undefined };
      if (topic !== 'SESSION_EVENT') return detail;
      const { id, sessionId, seq } = detail as PublishedEvent;
      return { id, sessionId, seq };
    },
    async restore(type, compacted) {
      const [topic] = topicOf(type);
      if (!wellShaped(topic, compacted)) {
        logger.warn({ type }, 'Ignored a publish of an unknown shape');
        return null;
      }
      return topic === 'SESSION_EVENT' ? records.event((compacted as { id: string }).id) : compacted;
    },
    async missedSince(type, since) {
      const [topic, id] = topicOf(type);
      switch (topic) {
        case 'SESSION_EVENT': {
          const latest = await records.latestEvent(id);
          return latest ? [latest] : [];
        }
        case 'RUN_UPDATED':
          return records.runsChangedSince(id, since);
        case 'RUN_OUTPUT': {
          // The output so far from its start: a stream passes on only what it has not delivered.
          const run = await records.run(id);
          if (!run) return [];
          const chunk: RunOutputChunk = { runId: run.id, offset: 0, text: run.output ?? '' };
          return outputEnded(run) ? [chunk, { runId: run.id, ended: true }] : [chunk];
        }
        case 'SESSION_CONTINUED':
          return (await records.continuationsSince({ predecessorId: id }, since)).map(publishedContinuation);
        case 'ACCOUNT_CONTINUED':
          return (await records.continuationsSince({ accountId: id }, since)).map(publishedContinuation);
        case 'CONTINUATION_PROPOSAL':
          return (await records.proposalsChangedSince(id, since)).map(publishedProposal);
        default:
          return [];
      }
    },
    identity(type, detail) {
      switch (topicOf(type)[0]) {
        case 'SESSION_CONTINUED':
        case 'ACCOUNT_CONTINUED':
          return (detail as PublishedContinuation).edgeId;
        case 'RUN_OUTPUT': {
          const output = detail as PublishedRunOutput;
          return 'ended' in output ? 'ended' : `${output.offset}:${output.text.length}`;
        }
        case 'RUN_UPDATED': {
          // A run is delivered again only in a state not delivered yet.
          const run = detail as PublishedRun;
          return `${run.id}:${run.status}:${run.attempt}:${new Date(run.updatedAt).toISOString()}`;
        }
        case 'CONTINUATION_PROPOSAL': {
          // A proposal is delivered once made and once decided.
          const proposal = detail as PublishedProposal;
          return `${proposal.id}:${proposal.status}`;
        }
        default:
          return (detail as { id: string }).id;
      }
    },
  };
}
