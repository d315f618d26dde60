import { CombinedGraphQLErrors } from '@apollo/client';
import { skipToken, useQuery } from '@apollo/client/react';
import { useCallback, useState } from 'react';
import { graphql } from '../../gql';
import type { SearchScope } from '../../gql/graphql';

export const SEARCH_PAGE_SIZE = 10;

export const SearchEventsQuery = graphql(`
  query SearchEvents($query: String!, $sessionId: ID, $scope: SearchScope!, $first: Int!, $after: String) {
    searchEvents(query: $query, sessionId: $sessionId, scope: $scope, first: $first, after: $after) {
      edges {
        cursor
        node {
          ...EventSearchHitRow
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

/** A search as submitted: the query is trimmed and never empty. */
export interface EventSearchRequest {
  query: string;
  scope: SearchScope;
  /** The session SESSION and LINEAGE searches start from; left out of ACCOUNT searches. */
  sessionId?: string;
}

/** Why a search could not run, in words a person can act on. */
export interface SearchFailure {
  /** The server refused the query itself (INVALID_INPUT): the person should reword it. */
  refused: boolean;
  message: string;
}

function failureOf(error: unknown): SearchFailure {
  if (CombinedGraphQLErrors.is(error)) {
    const refusal = error.errors.find((graphQLError) => graphQLError.extensions?.code === 'INVALID_INPUT');
    if (refusal) return { refused: true, message: refusal.message };
  }
  return { refused: false, message: error instanceof Error ? error.message : String(error) };
}

/** Ranked hits for `request` (null: nothing searched yet), a page at a time. */
export function useEventSearch(request: EventSearchRequest | null) {
  const { data, loading, error, fetchMore } = useQuery(
    SearchEventsQuery,
    request
      ? {
          variables: { ...request, first: SEARCH_PAGE_SIZE },
          // Scores depend on the moment of searching and new events keep arriving: ask each time.
          fetchPolicy: 'network-only',
        }
      : skipToken,
  );
  const [loadingMore, setLoadingMore] = useState(false);
  const [moreFailure, setMoreFailure] = useState<SearchFailure | null>(null);

  const connection = request ? data?.searchEvents : undefined;
  const endCursor = connection?.pageInfo.endCursor ?? null;
  const hasMore = (connection?.pageInfo.hasNextPage ?? false) && endCursor !== null;

  const loadMore = useCallback(async () => {
    if (!hasMore || loadingMore) return;
    setLoadingMore(true);
    setMoreFailure(null);
    try {
      await fetchMore({ variables: { after: endCursor } });
    } catch (caught) {
      setMoreFailure(failureOf(caught));
    } finally {
      setLoadingMore(false);
    }
  }, [endCursor, fetchMore, hasMore, loadingMore]);

  return {
    hits: connection?.edges.map((edge) => edge.node) ?? [],
    searching: request !== null && loading && connection === undefined,
    failure: request && error ? failureOf(error) : null,
    hasMore,
    loadingMore,
    moreFailure,
    loadMore,
  };
}
