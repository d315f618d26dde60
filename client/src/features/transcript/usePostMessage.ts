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
          title
          status
          eventCount
          tokenCount
          continuedFrom {
            id
          }
        }
      }
      ... on OperationError {
        ...OperationErrorNoticeFields
        currentContinuation {
          id
          title
        }
      }
    }
  }
`);

export interface PostMessageOptions {
  /** Writing to a CONTINUED session: start a new continuation that receives the message. */
  branch?: boolean;
  /** Cids of files uploaded beforehand, in order. */
  attachments?: string[];
}

/**
 * Posts a user message. The server's answer carries the session's new counters; the event
 * itself is added to the cached transcript here, so it shows before the subscription echoes it.
 * With `branch`, the answer's session is the new successor (its transcript is not cached yet).
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

  async function postMessage(sessionId: string, text: string, clientMessageId: string, options: PostMessageOptions = {}) {
    const input = {
      sessionId,
      text,
      clientMessageId,
      ...(options.branch ? { branch: true } : {}),
      ...(options.attachments?.length ? { attachments: options.attachments } : {}),
    };
    const { data } = await mutate({ variables: { input } });
    if (!data) throw new Error('The server sent no result for the message.');
    return data.postMessage;
  }

  return { postMessage, posting: loading };
}
