import { useQuery } from '@apollo/client/react';
import { useCallback, useState } from 'react';
import { graphql } from '../../gql';

export const SESSIONS_PAGE_SIZE = 20;

export const SessionsQuery = graphql(`
  query Sessions($first: Int!, $after: String) {
    sessions(first: $first, after: $after, rootsOnly: true) {
      edges {
        cursor
        node {
          ...SessionSummary
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
      totalCount
    }
  }
`);

/** The viewer's lineages by their origin sessions, newest first, a page at a time. */
export function useSessions() {
  const { data, loading, error, fetchMore } = useQuery(SessionsQuery, {
    variables: { first: SESSIONS_PAGE_SIZE },
    // Sessions appear from other clients and agents too; the cache answers first, then the server.
    fetchPolicy: 'cache-and-network',
  });
  const [loadingMore, setLoadingMore] = useState(false);
  const [moreError, setMoreError] = useState<Error | null>(null);

  const connection = data?.sessions;
  const endCursor = connection?.pageInfo.endCursor ?? null;
  const hasMore = (connection?.pageInfo.hasNextPage ?? false) && endCursor !== null;

  const loadMore = useCallback(async () => {
    if (!hasMore || loadingMore) return;
    setLoadingMore(true);
    setMoreError(null);
    try {
      await fetchMore({ variables: { after: endCursor } });
    } catch (caught) {
      setMoreError(caught instanceof Error ? caught : new Error(String(caught)));
    } finally {
      setLoadingMore(false);
    }
  }, [endCursor, fetchMore, hasMore, loadingMore]);

  return {
    sessions: connection?.edges.map((edge) => edge.node) ?? [],
    totalCount: connection?.totalCount ?? 0,
    loading: loading && connection === undefined,
    error,
    hasMore,
    loadingMore,
    moreError,
    loadMore,
  };
}
