import { useSubscription } from '@apollo/client/react';
import { graphql } from '../../gql';
import { appendEventToTranscript, countLiveEvent } from './transcript.cache';

export const SessionEventsSubscription = graphql(`
  subscription SessionEvents($sessionId: ID!) {
    sessionEvents(sessionId: $sessionId) {
      ...TranscriptEvent
    }
  }
`);

/**
 * Follows the session's transcript as events are appended (by this client, another client or
 * the agent) and merges each into the cached transcript. Returns the subscription's error.
 */
export function useLiveTranscript(sessionId: string) {
  const { error } = useSubscription(SessionEventsSubscription, {
    variables: { sessionId },
    onData({ client, data }) {
      const event = data.data?.sessionEvents;
      if (event && appendEventToTranscript(client.cache, sessionId, event)) {
        countLiveEvent(client.cache, sessionId, event);
      }
    },
  });
  return { error };
}
