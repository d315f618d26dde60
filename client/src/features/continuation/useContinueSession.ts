import type { ApolloClient } from '@apollo/client';
import { useApolloClient, useMutation } from '@apollo/client/react';
import { graphql } from '../../gql';
import type { ContinuationSourceInput, ContinueSessionInput, HandoffInput } from '../../gql/graphql';

export const ContinueSessionMutation = graphql(`
  mutation ContinueSession($input: ContinueSessionInput!) {
    continueSession(input: $input) {
      __typename
      ... on ContinueSessionSuccess {
        edge {
          id
          predecessor {
            id
            status
            currentContinuation {
              id
              title
              status
            }
          }
        }
        successor {
          id
          title
          origin {
            id
            currentContinuation {
              id
              title
              status
              lineage {
                id
              }
            }
          }
        }
      }
      ... on OperationError {
        ...OperationErrorNoticeFields
      }
    }
  }
`);

/** The first and the latest event of a transcript, as exact one-event ranges. */
export const TranscriptBoundsQuery = graphql(`
  query TranscriptBounds($id: ID!, $lastSeq: Int!) {
    session(id: $id) {
      id
      opening: events(fromSeq: 1, toSeq: 1) {
        edges {
          node {
            id
          }
        }
      }
      latest: events(fromSeq: $lastSeq, toSeq: $lastSeq) {
        edges {
          node {
            id
          }
        }
      }
    }
  }
`);

/** What the successor carries besides what the runtime adds (the initiating message, the recent exchange). */
export type SourceSelection =
  /** The whole transcript, cited as one range. */
  | { kind: 'conversation' }
  /**
   * Assisted selection fills the budget (`assist: true`) and nothing is cited: cited sources are
   * placed first, so a cited whole transcript would leave recommendations no room.
   */
  | { kind: 'assisted' }
  /** The recommendations a person kept, cited as they were recommended. */
  | { kind: 'kept'; sources: ContinuationSourceInput[] };

export interface ContinuationRequest {
  sessionId: string;
  /** The transcript's length as the person sees it: the cited range ends there. */
  eventCount: number;
  title: string;
  handoff: HandoffInput;
  /** Absent: the server's default budget. */
  tokenBudget?: number;
  selection: SourceSelection;
  idempotencyKey: string;
}

/** The whole transcript as it is now: its first to latest event. Throws when its bounds cannot be read. */
async function conversationSource(client: ApolloClient, request: ContinuationRequest): Promise<ContinuationSourceInput> {
  const { data: bounds } = await client.query({
    query: TranscriptBoundsQuery,
    variables: { id: request.sessionId, lastSeq: request.eventCount },
    // Read at the moment of asking; kept out of the cache, whose events policy merges
    // whole pages (with pageInfo), not these bare edges.
    fetchPolicy: 'no-cache',
  });
  const fromEventId = bounds?.session?.opening.edges[0]?.node.id;
  const toEventId = bounds?.session?.latest.edges[0]?.node.id;
  if (!fromEventId || !toEventId) throw new Error('The transcript could not be read to cite it.');
  return { kind: 'SESSION_EVENTS', sessionId: request.sessionId, fromEventId, toEventId, relevance: 'the conversation so far' };
}

/**
 * The input continueSession gets for a person's request and its selection of sources. Throws
 * when the transcript's bounds cannot be read to cite it.
 */
export async function continuationInput(client: ApolloClient, request: ContinuationRequest): Promise<ContinueSessionInput> {
  const { selection } = request;
  return {
    sessionId: request.sessionId,
    idempotencyKey: request.idempotencyKey,
    reason: 'USER_REQUEST',
    // A person confirmed it in this dialog: the edge records them, not the agent.
    actor: 'USER',
    title: request.title,
    handoff: request.handoff,
    ...(request.tokenBudget !== undefined && { tokenBudget: request.tokenBudget }),
    ...(selection.kind === 'assisted' && { assist: true }),
    sources:
      selection.kind === 'conversation'
        ? [await conversationSource(client, request)]
        : selection.kind === 'kept'
          ? selection.sources
          : [],
  };
}

/**
 * Continues a session on a person's request, with the sources they chose. The
 * answer updates the predecessor (now CONTINUED) and its lineage's head in the cache.
 * Throws when the transcript's bounds or the answer cannot be read; refusals are returned.
 */
export function useContinueSession() {
  const client = useApolloClient();
  const [mutate] = useMutation(ContinueSessionMutation);

  async function continueSession(request: ContinuationRequest) {
    const input = await continuationInput(client, request);
    const { data } = await mutate({ variables: { input } });
    if (!data) throw new Error('The server sent no result for the continuation.');
    return data.continueSession;
  }

  return { continueSession };
}
