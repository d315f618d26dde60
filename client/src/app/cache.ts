import { InMemoryCache, type FieldFunctionOptions, type Reference } from '@apollo/client';
import { relayStylePagination } from '@apollo/client/utilities';
import { transcriptEventsPolicy } from '../features/transcript/transcript.cache';

/**
 * A continued session never becomes active again, and never continues in itself again. An answer
 * read before a continuation can land after its announcement; it must not undo what the cache
 * already knows.
 */
function keepContinued(existing: string | undefined, incoming: string): string {
  return existing === 'CONTINUED' && incoming === 'ACTIVE' ? existing : incoming;
}

/** The end of the newest chain is never itself continued: an answer naming a continued session is stale. */
function keepContinuation(existing: Reference | undefined, incoming: Reference, { readField }: FieldFunctionOptions): Reference {
  return existing !== undefined && readField<string>('status', incoming) === 'CONTINUED' ? existing : incoming;
}

/**
 * A transcript only grows (erasure keeps an event's place and count), so a session's counters never
 * fall. An answer read before a live event (postMessage's, racing the agent's reply over the
 * subscription) must not take the count back below an event the transcript already shows.
 */
function keepHigherCount(existing: number | undefined, incoming: number): number {
  return existing === undefined ? incoming : Math.max(existing, incoming);
}

/** The normalized cache with the pagination rules of the app's connections. */
export function createCache(): InMemoryCache {
  return new InMemoryCache({
    typePolicies: {
      Query: {
        fields: {
          sessions: relayStylePagination(['status', 'rootsOnly']),
          searchEvents: relayStylePagination(['query', 'sessionId', 'scope']),
        },
      },
      Session: {
        fields: {
          events: transcriptEventsPolicy,
          status: { merge: keepContinued },
          currentContinuation: { merge: keepContinuation },
          eventCount: { merge: keepHigherCount },
          tokenCount: { merge: keepHigherCount },
        },
      },
    },
  });
}
