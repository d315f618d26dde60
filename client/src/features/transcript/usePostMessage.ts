import { useMutation } from '@apollo/client/react';
import { graphql } from '../../gql';
import { appendEventToTranscript } from './transcript.cache';

export const PostMessageMutation = graphql(`
  mutation PostMessage($input: PostMessageInput!) {
    postMessage(input: $input) {
      __typename
      ... on PostMessageSuccess {
        event {
          ...TranscriptEvent
        }
        session {
          id
          status
          eventCount
          tokenCount
        }
      }
      ... on OperationError {
        code
        message
        details {
          path
          message
        }
      }
    }
  }
`);

/**
 * Posts a user message. The server's answer carries the session's new counters; the event
 * itself is added to the cached transcript here, so it shows before the subscription echoes it.
 */
export function usePostMessage() {
  const [mutate, { loading }] = useMutation(PostMessageMutation, {
    update(cache, { data }) {
      const result = data?.postMessage;
      if (result?.__typename === 'PostMessageSuccess') {
        appendEventToTranscript(cache, result.session.id, result.event);
      }
    },
  });

  async function postMessage(sessionId: string, text: string, clientMessageId: string) {
    const { data } = await mutate({ variables: { input: { sessionId, text, clientMessageId } } });
    if (!data) throw new Error('The server sent no result for the message.');
    return data.postMessage;
  }

  return { postMessage, posting: loading };
}
