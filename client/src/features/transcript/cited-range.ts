import { skipToken, useQuery } from '@apollo/client/react';
import { graphql } from '../../gql';

/**
 * Opens exact sources: `/sessions/<id>?from=<event id>&to=<event id>` shows that session with
 * the events from `from` through `to` highlighted. Event ids, not seqs, because manifests and
 * replayed messages name their sources by id.
 */
export function eventRangeLink(sessionId: string, fromEventId: string, toEventId: string): string {
  const query = new URLSearchParams({ from: fromEventId, to: toEventId });
  return `/sessions/${sessionId}?${query.toString()}`;
}

/** The address's cited range, if it names one. A single event may omit `to`. */
export function citedEventIds(search: URLSearchParams): { fromEventId: string; toEventId: string } | null {
  const fromEventId = search.get('from');
  if (!fromEventId) return null;
  return { fromEventId, toEventId: search.get('to') || fromEventId };
}

export const CitedRangeQuery = graphql(`
  query CitedRange($fromEventId: ID!, $toEventId: ID!) {
    from: event(id: $fromEventId) {
      id
      seq
      session {
        id
      }
    }
    to: event(id: $toEventId) {
      id
      seq
      session {
        id
      }
    }
  }
`);

export interface SeqRange {
  fromSeq: number;
  toSeq: number;
}

export type CitedRange =
  | { status: 'none' }
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'found'; range: SeqRange };

/** Resolves the cited event ids to positions in this session's transcript. */
export function useCitedRange(sessionId: string, cited: { fromEventId: string; toEventId: string } | null): CitedRange {
  const { data, loading, error } = useQuery(CitedRangeQuery, cited ? { variables: cited } : skipToken);
  if (cited === null) return { status: 'none' };
  if (loading && !data) return { status: 'loading' };
  if (error) return { status: 'failed', message: error.message };
  const from = data?.from;
  const to = data?.to;
  if (!from || !to || from.session.id !== sessionId || to.session.id !== sessionId) {
    return { status: 'failed', message: 'The cited events are not part of this session.' };
  }
  return { status: 'found', range: { fromSeq: Math.min(from.seq, to.seq), toSeq: Math.max(from.seq, to.seq) } };
}
