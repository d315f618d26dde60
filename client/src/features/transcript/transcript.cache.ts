import type { ApolloCache, FieldPolicy, Reference } from '@apollo/client';
import type { TranscriptEventFragment } from '../../gql/graphql';
import { TranscriptEventFragmentDocument } from './TranscriptEvent';

interface PageInfo {
  hasPreviousPage: boolean;
  hasNextPage: boolean;
  startCursor?: string | null;
  endCursor?: string | null;
}

/** An events connection as stored in the cache: edges hold references to normalized events. */
interface StoredEventConnection {
  edges: { node: Reference }[];
  pageInfo: PageInfo;
  totalCount: number;
}

type ReadSeq = (edge: { node: Reference }) => number;

/**
 * `Session.events` as one transcript per session: pages loaded with `last`/`before`, events
 * posted from this client and events pushed by the subscription all merge into a single list
 * ordered by `seq`, each event once. Exact ranges (`fromSeq`/`toSeq`) are cached apart, so a
 * range read never punches holes into the transcript.
 */
export const transcriptEventsPolicy: FieldPolicy<StoredEventConnection> = {
  keyArgs: (args) => (args?.fromSeq == null && args?.toSeq == null ? false : ['fromSeq', 'toSeq']),
  merge(existing, incoming, { readField }) {
    if (!existing) return incoming;
    const seqOf: ReadSeq = (edge) => readField<number>('seq', edge.node) ?? 0;
    const bySeq = new Map<number, { node: Reference }>();
    for (const edge of [...existing.edges, ...incoming.edges]) bySeq.set(seqOf(edge), edge);
    const edges = [...bySeq.values()].sort((a, b) => seqOf(a) - seqOf(b));

    // Each end of the merged list keeps the page info of the page that reached furthest there.
    const first = firstSeq(incoming, seqOf) < firstSeq(existing, seqOf) ? incoming : existing;
    const last = lastSeq(incoming, seqOf) > lastSeq(existing, seqOf) ? incoming : existing;
    return {
      ...incoming,
      edges,
      pageInfo: {
        ...last.pageInfo,
        hasPreviousPage: first.pageInfo.hasPreviousPage,
        startCursor: first.pageInfo.startCursor,
      },
      totalCount: Math.max(existing.totalCount, incoming.totalCount, edges.length),
    };
  },
};

function firstSeq(connection: StoredEventConnection, seqOf: ReadSeq): number {
  return connection.edges.length === 0 ? Infinity : seqOf(connection.edges[0]);
}

function lastSeq(connection: StoredEventConnection, seqOf: ReadSeq): number {
  return connection.edges.length === 0 ? -Infinity : seqOf(connection.edges[connection.edges.length - 1]);
}

/**
 * Adds an event to its session's cached transcript, in `seq` order, unless it is already there.
 * Does nothing when the transcript has not been loaded. Returns whether the event was added.
 */
export function appendEventToTranscript(
  cache: ApolloCache,
  sessionId: string,
  event: TranscriptEventFragment,
): boolean {
  const eventRef = cache.writeFragment({
    fragment: TranscriptEventFragmentDocument,
    data: event,
  });
  if (!eventRef) return false;

  let added = false;
  cache.modify<{ events: StoredEventConnection }>({
    id: cache.identify({ __typename: 'Session', id: sessionId }),
    fields: {
      events(existing, { readField, storeFieldName, isReference }) {
        // Only the transcript itself ("events" without a range key) receives live events.
        if (storeFieldName !== 'events' || isReference(existing)) return existing;
        if (existing.edges.some((edge) => readField('id', edge.node) === event.id)) return existing;
        const seqOf: ReadSeq = (edge) => readField<number>('seq', edge.node) ?? 0;
        const edges = [...existing.edges, { __typename: 'EventEdge', node: eventRef }].sort(
          (a, b) => seqOf(a) - seqOf(b),
        );
        added = true;
        return { ...existing, edges, totalCount: existing.totalCount + 1 };
      },
    },
  });
  return added;
}

/** Keeps the session's counters in step with a live event that was new to the transcript. */
export function countLiveEvent(cache: ApolloCache, sessionId: string, event: TranscriptEventFragment): void {
  cache.modify<{ eventCount: number; tokenCount: number }>({
    id: cache.identify({ __typename: 'Session', id: sessionId }),
    fields: {
      eventCount: (count) => Math.max(count, event.seq),
      tokenCount: (tokens) => tokens + event.tokenCount,
    },
  });
}
