import { createPubSub, PubSubEventTarget } from '@graphql-yoga/subscription';
import type { ContinuationEdgeEntity } from '../db/entities/continuation-edge.entity';
import type { EventEntity } from '../db/entities/event.entity';
import type { RunEntity } from '../db/entities/run.entity';
import type { ChangeNotifier } from '../services/notifications';

/** A continuation as published: ids only, resolved again by each subscriber under its own account. */
export interface PublishedContinuation {
  edgeId: string;
  predecessorId: string;
  successorId: string;
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
};

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

/** The services' notifier, publishing to the GraphQL subscriptions' topics. */
export function pubSubNotifier(pubSub: AppPubSub): ChangeNotifier {
  return {
    eventsAppended(events) {
      for (const event of events) pubSub.publish('SESSION_EVENT', event.sessionId, event);
    },
    sessionContinued(edge: ContinuationEdgeEntity) {
      const continuation = { edgeId: edge.id, predecessorId: edge.predecessorId, successorId: edge.successorId };
      pubSub.publish('SESSION_CONTINUED', edge.predecessorId, continuation);
      pubSub.publish('ACCOUNT_CONTINUED', edge.accountId, continuation);
    },
    runsChanged(runs) {
      for (const run of runs) pubSub.publish('RUN_UPDATED', run.sessionId, run);
    },
  };
}

/** An event record back from the pub/sub, with its dates as Date objects again. */
export function revivePublishedEvent(event: PublishedEvent): EventEntity {
  return { ...event, createdAt: new Date(event.createdAt) } as EventEntity;
}

/** A run record back from the pub/sub, with its dates as Date objects again. */
export function revivePublishedRun(run: PublishedRun): RunEntity {
  return { ...run, createdAt: new Date(run.createdAt), updatedAt: new Date(run.updatedAt) } as RunEntity;
}

/**
 * A publish as announced to other processes: a transcript event, which can be large (its text),
 * travels as its identity and is read back from the database where someone subscribes to it.
 */
export function compactPayload(topic: string, detail: unknown): unknown {
  if (!topic.startsWith('SESSION_EVENT:')) return detail;
  const { id, sessionId, seq } = detail as PublishedEvent;
  return { id, sessionId, seq };
}
