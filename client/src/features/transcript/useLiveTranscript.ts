import { skipToken, useSubscription } from '@apollo/client/react';
import { useState } from 'react';
import { graphql } from '../../gql';
import { appendEventToTranscript, countLiveEvent } from './transcript.cache';

export const SessionEventsSubscription = graphql(`
  subscription SessionEvents($sessionId: ID!, $afterSeq: Int) {
    sessionEvents(sessionId: $sessionId, afterSeq: $afterSeq) {
      ...TranscriptEvent
    }
  }
`);

/**
 * Follows the session's transcript as events are appended (by this client, another client or
 * the agent) and merges each into the cached transcript. It subscribes once the transcript's
 * latest page is known, through `loadedThroughSeq`, and resumes after it: an event appended
 * between reading that page and subscribing (an agent answering as the page opens) is replayed,
 * not lost. Returns the subscription's error.
 */
export function useLiveTranscript(sessionId: string, loadedThroughSeq: number | null) {
  // The first known value only: every later event arrives through this very subscription.
  const [resumeAfterSeq, setResumeAfterSeq] = useState(loadedThroughSeq);
  if (resumeAfterSeq === null && loadedThroughSeq !== null) setResumeAfterSeq(loadedThroughSeq);

  const { error } = useSubscription(
    SessionEventsSubscription,
    resumeAfterSeq === null
      ? skipToken
      : {
          variables: { sessionId, afterSeq: resumeAfterSeq },
          onData({ client, data }) {
            const event = data.data?.sessionEvents;
            if (event && appendEventToTranscript(client.cache, sessionId, event)) {
              countLiveEvent(client.cache, sessionId, event);
            }
          },
        },
  );
  return { error };
}
