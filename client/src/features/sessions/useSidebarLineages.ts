import { useQuery, useSubscription } from '@apollo/client/react';
import { useCallback, useEffect, useState } from 'react';
import { graphql } from '../../gql';

/** Lineages per page: each carries its whole tree, and the server bounds what one query may ask for. */
export const SIDEBAR_PAGE_SIZE = 20;

export const SidebarLineageFragmentDocument = graphql(`
  fragment SidebarLineage on Session {
    id
    title
    createdAt
    currentContinuation {
      id
      title
      status
      ...SessionActivity
    }
    lineageTree {
      ...LineageMapNode
      session {
        id
        erasedAt
      }
    }
  }
`);

export const SidebarLineagesQuery = graphql(`
  query SidebarLineages($first: Int!, $after: String) {
    sessions(first: $first, after: $after, rootsOnly: true) {
      edges {
        cursor
        node {
          ...SidebarLineage
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

/**
 * Every continuation of the account, with the whole lineage it changed: written to the cache,
 * it moves that lineage's head in the sidebar, whichever tab or agent continued.
 */
export const AccountContinuationsSubscription = graphql(`
  subscription AccountContinuations {
    sessionContinued {
      edge {
        id
      }
      successor {
        id
        origin {
          ...SidebarLineage
        }
      }
    }
  }
`);

/**
 * The viewer's conversations by lineage, newest origin first, a page at a time, kept current as
 * any of them continues. Sessions created elsewhere appear when the tab is shown again (no
 * subscription announces a new session); that reads the first page again.
 */
export function useSidebarLineages() {
  const { data, loading, error, fetchMore, refetch } = useQuery(SidebarLineagesQuery, {
    variables: { first: SIDEBAR_PAGE_SIZE },
    fetchPolicy: 'cache-and-network',
    // A refetch (after a session is created here) must ask again, not join the first page's
    // request still on its way, whose answer was read before the session existed.
    context: { queryDeduplication: false },
  });
  useSubscription(AccountContinuationsSubscription);
  const [loadingMore, setLoadingMore] = useState(false);
  const [moreError, setMoreError] = useState<Error | null>(null);

  useEffect(() => {
    const onShown = () => {
      if (document.visibilityState === 'visible') void refetch().catch(() => undefined);
    };
    document.addEventListener('visibilitychange', onShown);
    return () => document.removeEventListener('visibilitychange', onShown);
  }, [refetch]);

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
    // A conversation deleted whole is gone from the list; one with a session left still shows.
    lineages: connection?.edges.map((edge) => edge.node).filter((lineage) => lineage.lineageTree.some((node) => !node.session.erasedAt)) ?? [],
    totalCount: connection?.totalCount ?? 0,
    loading: loading && connection === undefined,
    error,
    hasMore,
    loadingMore,
    moreError,
    loadMore,
  };
}
