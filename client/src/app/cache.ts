import { InMemoryCache } from '@apollo/client';
import { relayStylePagination } from '@apollo/client/utilities';
import { transcriptEventsPolicy } from '../features/transcript/transcript.cache';

/** The normalized cache with the pagination rules of the app's connections. */
export function createCache(): InMemoryCache {
  return new InMemoryCache({
    typePolicies: {
      Query: {
        fields: {
          sessions: relayStylePagination(['status', 'rootsOnly']),
        },
      },
      Session: {
        fields: {
          events: transcriptEventsPolicy,
        },
      },
    },
  });
}
