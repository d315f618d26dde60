import { useQuery } from '@apollo/client/react';
import { graphql } from '../../gql';

export const SessionLineageQuery = graphql(`
  query SessionLineage($id: ID!) {
    session(id: $id) {
      id
      currentContinuation {
        id
        title
        status
      }
      continuedFrom {
        ...SuccessorBanner
      }
      continuations {
        id
        successor {
          id
          title
        }
      }
      origin {
        id
        title
        currentContinuation {
          id
        }
      }
      lineageTree {
        ...LineageMapNode
      }
      ...LineageBreadcrumb
    }
  }
`);

/** Where a session sits in its lineage: where it came from, where it went, and the whole tree. */
export function useSessionLineage(sessionId: string) {
  const { data, error } = useQuery(SessionLineageQuery, {
    variables: { id: sessionId },
    // Continuations happen elsewhere too: show what the cache knows, then what the server says.
    fetchPolicy: 'cache-and-network',
  });
  return { lineage: data?.session ?? null, error };
}
