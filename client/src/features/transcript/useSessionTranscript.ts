import { useQuery } from '@apollo/client/react';
import { useCallback, useMemo, useState } from 'react';
import { graphql } from '../../gql';

/** Events per transcript page: the latest page first, then older ones on demand. */
export const TRANSCRIPT_PAGE_SIZE = 50;

/**
 * The session and its transcript only. Its place in the lineage comes from another query: a
 * result naming this session again (as its own lineage step or head) would have the cache merge
 * `events` before the new events are written, when their seqs cannot be read yet.
 */
export const SessionTranscriptQuery = graphql(`
  query SessionTranscript($id: ID!, $last: Int!, $before: String) {
    session(id: $id) {
      id
      kind
      status
      title
      description
      createdAt
      eventCount
      tokenCount
      continuationApproval
      erasedAt
      events(last: $last, before: $before) {
        edges {
          node {
            ...TranscriptEvent
          }
        }
        pageInfo {
          hasPreviousPage
          hasNextPage
          startCursor
          endCursor
        }
        totalCount
      }
    }
  }
`);

/** A session with its transcript, oldest event first, and a way to load the page before it. */
export function useSessionTranscript(sessionId: string) {
  const { data, loading, error, fetchMore } = useQuery(SessionTranscriptQuery, {
    variables: { id: sessionId, last: TRANSCRIPT_PAGE_SIZE },
    // Show the cached transcript at once, and catch up with anything appended while away.
    fetchPolicy: 'cache-and-network',
  });
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [olderError, setOlderError] = useState<Error | null>(null);

  const session = data?.session;
  const edges = session?.events.edges;
  const events = useMemo(() => edges?.map((edge) => edge.node) ?? [], [edges]);
  const startCursor = session?.events.pageInfo.startCursor ?? null;
  const hasOlder = (session?.events.pageInfo.hasPreviousPage ?? false) && startCursor !== null;

  const loadOlder = useCallback(async () => {
    if (!hasOlder || loadingOlder) return;
    setLoadingOlder(true);
    setOlderError(null);
    try {
      await fetchMore({ variables: { before: startCursor } });
    } catch (caught) {
      setOlderError(caught instanceof Error ? caught : new Error(String(caught)));
    } finally {
      setLoadingOlder(false);
    }
  }, [fetchMore, hasOlder, loadingOlder, startCursor]);

  return {
    session,
    events,
    loading: loading && session === undefined,
    /** The transcript as the server answered it on this visit: not the cache's copy, nor a failed refresh's. */
    fetched: !loading && !error && session !== undefined,
    error,
    hasOlder,
    loadingOlder,
    olderError,
    loadOlder,
  };
}
