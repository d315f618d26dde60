import { skipToken, useQuery } from '@apollo/client/react';
import { graphql } from '../../gql';

/**
 * Why a range is highlighted: a source a handoff cited (the default), a search hit, or the
 * original of a message a successor replayed.
 */
export type CitedVia = 'source' | 'search' | 'replay';

const VIA: readonly CitedVia[] = ['source', 'search', 'replay'];

/**
 * Opens exact events: `/sessions/<id>?from=<event id>&to=<event id>` shows that session with
 * the events from `from` through `to` highlighted, `&via=search` or `&via=replay` saying why.
 * Event ids, not seqs, because manifests and replayed messages name their sources by id.
 */
export function eventRangeLink(sessionId: string, fromEventId: string, toEventId: string, via: CitedVia = 'source'): string {
  const query = new URLSearchParams({ from: fromEventId, to: toEventId, ...(via !== 'source' && { via }) });
  return `/sessions/${sessionId}?${query.toString()}`;
}

export interface CitedEvents {
  fromEventId: string;
  toEventId: string;
  via: CitedVia;
}

/** The address's cited range, if it names one. A single event may omit `to`. */
export function citedEventIds(search: URLSearchParams): CitedEvents | null {
  const fromEventId = search.get('from');
  if (!fromEventId) return null;
  const via = search.get('via');
  return { fromEventId, toEventId: search.get('to') || fromEventId, via: VIA.find((known) => known === via) ?? 'source' };
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
  via: CitedVia;
}

export type CitedRange =
  | { status: 'none' }
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'found'; range: SeqRange };

/** Resolves the cited event ids to positions in this session's transcript. */
export function useCitedRange(sessionId: string, cited: CitedEvents | null): CitedRange {
  const { data, loading, error } = useQuery(
    CitedRangeQuery,
    cited ? { variables: { fromEventId: cited.fromEventId, toEventId: cited.toEventId } } : skipToken,
  );
  if (cited === null) return { status: 'none' };
  if (loading && !data) return { status: 'loading' };
  if (error) return { status: 'failed', message: error.message };
  const from = data?.from;
  const to = data?.to;
  if (!from || !to || from.session.id !== sessionId || to.session.id !== sessionId) {
    return { status: 'failed', message: 'The cited events are not part of this session.' };
  }
  return { status: 'found', range: { fromSeq: Math.min(from.seq, to.seq), toSeq: Math.max(from.seq, to.seq), via: cited.via } };
}
