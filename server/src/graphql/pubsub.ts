import { createPubSub } from '@graphql-yoga/subscription';
import type { EventEntity } from '../db/entities/event.entity';
import type { ChangeNotifier } from '../services/notifications';

/**
 * Typed topics. Payloads are plain JSON-safe records so that an event target that crosses
 * processes (e.g. Redis or PostgreSQL LISTEN/NOTIFY) can replace the in-memory one unchanged.
 */
export type Topics = {
  SESSION_EVENT: [sessionId: string, event: PublishedEvent];
};

/** An event as published: `createdAt` may arrive as an ISO string after crossing a process. */
export type PublishedEvent = Omit<EventEntity, 'createdAt'> & { createdAt: Date | string };

export type AppPubSub = ReturnType<typeof createPubSub<Topics>>;

/** The in-process pub/sub; pass `eventTarget` to share it between server processes. */
export function createAppPubSub(eventTarget?: Parameters<typeof createPubSub<Topics>>[0]): AppPubSub {
  return createPubSub<Topics>(eventTarget);
}

/** The services' notifier, publishing to the GraphQL subscriptions' topics. */
export function pubSubNotifier(pubSub: AppPubSub): ChangeNotifier {
  return {
    eventsAppended(events) {
      for (const event of events) pubSub.publish('SESSION_EVENT', event.sessionId, event);
    },
  };
}

/** An event record back from the pub/sub, with its dates as Date objects again. */
export function revivePublishedEvent(event: PublishedEvent): EventEntity {
  return { ...event, createdAt: new Date(event.createdAt) } as EventEntity;
}
