import { EntityManager } from 'typeorm';
import type { EventRangeRead } from './projection/model';
import { ACTIVE_RUN_STATUSES } from '../conversation/runs';
import { EventEntity } from '../conversation/event.entity';
import { RunEntity } from '../conversation/run.entity';
import { SessionEntity } from '../conversation/session.entity';
import { ProjectionManifestEntity } from './projection-manifest.entity';
import { ContinuationRateWindowEntity } from './continuation-rate-window.entity';
import { continuationsInLastMinute } from './rate-window';
import { preparedQuery } from '../../platform/db/prepared';
import { columnList, entitiesRead, entityFromRow, firstOf, textPerDataSource } from '../../platform/db/rows';
import type { Read } from '../../platform/db/read-batch';
import { Sql, WriteTransaction } from '../../platform/db/write-transaction';
import { hasActiveEndpoint } from '../webhooks/webhook.repository';

/** What a continuation checks of its predecessor, its cited events and its account, read in one round trip. */
export interface ContinuationSnapshot {
  /** The edge an earlier call with the same idempotency key created. */
  earlierEdgeId: string | null;
  latestUserMessage: EventEntity | null;
  /** Queued or running runs reporting to the predecessor, oldest first. */
  activeRuns: RunEntity[];
  /**
   * A tool call of the predecessor that has no result yet. Calls that started delegated runs are
   * not counted: their runs are pending (and must be transferred) or have reported elsewhere.
   */
  unresolvedToolCallId: string | null;
  /** The cited events that exist in the account. */
  citedEvents: EventEntity[];
  /** The account's continuations in the last minute, as its rate window estimates them. */
  recentContinuations: number;
  /** Whether the account had a webhook endpoint that is not disabled: without one, the write needs no outbox. */
  hasWebhookEndpoint: boolean;
}

interface SnapshotRow {
  earlier_edge_id: string | null;
  latest_user_message: Record<string, unknown> | null;
  active_runs: Record<string, unknown>[];
  unresolved_tool_call_id: string | null;
  cited_events: Record<string, unknown>[];
  rate_window: Record<string, unknown> | null;
  has_webhook_endpoint: boolean;
}

/** The predecessor's columns, and its snapshot's. */
interface LockedSnapshotRow extends SnapshotRow, Record<string, unknown> {
  changed_while_waiting: boolean;
}

export interface SnapshotQuery {
  accountId: string;
  sessionId: string;
  idempotencyKey: string;
  eventIds: string[];
}

/**
 * Kept prepared, these statements run on one generic plan for the life of a connection, planned
 * without knowing the values and perhaps while the tables were empty: each lookup is written so
 * that an index probe is its only sensible plan. A subquery with LIMIT (or OFFSET 0) is planned on
 * its own, once per outer row, rather than folded into a join that may hash a whole table; a scan
 * ordered like its index with a LIMIT reads only what it returns.
 */
const snapshotColumns = (manager: EntityManager) => `
  (SELECT edge.id FROM continuation_edges edge
   WHERE edge.account_id = $1 AND edge.idempotency_key = $3) AS earlier_edge_id,
  (SELECT row_to_json(message) FROM events message
   WHERE message.session_id = $2 AND message.kind = 'USER_MESSAGE' ORDER BY message.seq DESC LIMIT 1) AS latest_user_message,
  (SELECT coalesce(json_agg(run ORDER BY run.created_at, run.id), '[]'::json) FROM runs run
   WHERE run.session_id = $2 AND run.status = ANY($5::text[])) AS active_runs,
  (SELECT call.tool_call_id FROM events call
   WHERE call.session_id = $2 AND call.kind = 'TOOL_CALL'
     AND NOT EXISTS (SELECT 1 FROM events result
                     WHERE result.session_id = call.session_id AND result.kind = 'TOOL_RESULT'
                       AND result.tool_call_id = call.tool_call_id)
     AND (SELECT 1 FROM runs delegated
          WHERE delegated.tool_call_id = call.tool_call_id AND delegated.account_id = $1 AND delegated.kind = 'DELEGATED'
          LIMIT 1) IS NULL
   LIMIT 1) AS unresolved_tool_call_id,
  (SELECT coalesce(json_agg(cited), '[]'::json) FROM unnest($4::uuid[]) wanted (id)
   CROSS JOIN LATERAL (SELECT ${columnList(manager, EventEntity)} FROM events WHERE events.id = wanted.id AND events.account_id = $1 LIMIT 1) cited) AS cited_events,
  (SELECT row_to_json(rate) FROM continuation_rate_windows rate WHERE rate.account_id = $1) AS rate_window,
  ${hasActiveEndpoint('$1')} AS has_webhook_endpoint`;

function snapshotParameters(query: SnapshotQuery): unknown[] {
  return [query.accountId, query.sessionId, query.idempotencyKey, query.eventIds, ACTIVE_RUN_STATUSES];
}

function snapshotFromRow(manager: EntityManager, row: SnapshotRow): ContinuationSnapshot {
  return {
    earlierEdgeId: row.earlier_edge_id,
    latestUserMessage: row.latest_user_message ? entityFromRow(manager, EventEntity, row.latest_user_message) : null,
    activeRuns: row.active_runs.map((run) => entityFromRow(manager, RunEntity, run)),
    unresolvedToolCallId: row.unresolved_tool_call_id,
    citedEvents: row.cited_events.map((event) => entityFromRow(manager, EventEntity, event)),
    recentContinuations: continuationsInLastMinute(
      row.rate_window && entityFromRow(manager, ContinuationRateWindowEntity, row.rate_window),
      new Date(),
    ),
    hasWebhookEndpoint: row.has_webhook_endpoint,
  };
}

/** What a continuation checks, read without locking anything: for a preview, or again once the lock is held. */
export async function continuationSnapshot(manager: EntityManager, query: SnapshotQuery): Promise<ContinuationSnapshot> {
  const [row] = await preparedQuery<SnapshotRow[]>(manager, `SELECT ${snapshotColumns(manager)}`, snapshotParameters(query));
  return snapshotFromRow(manager, row);
}

/**
 * Opens the transaction by locking the predecessor, and reads the snapshot in the same round
 * trip. The snapshot is as of the statement's start, the locked row as of the lock: when another
 * writer committed to the session in between (waiting for it to let go, say), the row versions
 * differ and the snapshot is read again, now that the lock is held. Every write that changes what
 * the snapshot checks (events, runs it queues, continuations) updates the session row.
 * `also` rides in the same round trip, after the lock (a write to a run of the session, say): its rows are returned.
 */
export async function lockWithSnapshot(
  transaction: WriteTransaction,
  query: SnapshotQuery,
  prefetch: EventPrefetch,
  also: Sql | null = null,
): Promise<{ predecessor: SessionEntity; snapshot: ContinuationSnapshot; prefetched: EventEntity[]; alsoReturned: unknown } | { predecessor: null }> {
  const manager = transaction.manager;
  const reads = prefetch.reads.length ? [eventRangesStatement(manager, prefetch.reads)] : [];
  const [[row], events, ...rest] = await transaction.begin(
    { text: lockText(manager), values: snapshotParameters(query) },
    prefetchStatement(manager, query, prefetch),
    ...reads,
    ...(also ? [also] : []),
  );
  if (!row) return { predecessor: null };
  const locked = row as LockedSnapshotRow;
  const prefetched = [...events, ...(reads.length ? rest[0] : [])].map((event) => entityFromRow(manager, EventEntity, event));
  const alsoReturned = also ? rest[rest.length - 1] : null;
  return {
    predecessor: entityFromRow(manager, SessionEntity, locked),
    snapshot: locked.changed_while_waiting ? await continuationSnapshot(manager, query) : snapshotFromRow(manager, locked),
    prefetched,
    alsoReturned,
  };
}

/**
 * One level, no CTE (see the message's lock, `lockForMessage`): the subqueries of the snapshot
 * are computed as of the statement's start, as is the one that reads the row's version then.
 */
const lockText = textPerDataSource((manager) => `SELECT ${columnList(manager, SessionEntity)},
    xmin <> (SELECT seen.xmin FROM sessions seen WHERE seen.id = $2) AS changed_while_waiting,
    ${snapshotColumns(manager)}
  FROM sessions WHERE id = $2 AND account_id = $1 FOR UPDATE`);

/**
 * The statements of a continuation's first round trip (the lock with its snapshot, the prefetch,
 * the reads of recommended ranges): worth preparing on a connection before its first continuation.
 */
export function continuationLockStatements(manager: EntityManager): string[] {
  return [lockText(manager), prefetchText(manager), eventRangesText(manager)];
}

/**
 * Events a continuation's projection is about to read, fetched in the round trip that takes the
 * lock (and after it, so they are as current as the locked row): the recent exchange before its
 * initiating message (by default the latest user message; for a branch, the end of the
 * transcript) and, of every cited range whose last event fits the budget, as much of its end as
 * could fit, as the compiler asks for it.
 */
export interface EventPrefetch {
  initiatingEventId: string | null;
  branching: boolean;
  citedRanges: { fromEventId: string; toEventId: string }[];
  tokenBudget: number;
  recentEvents: number;
  /** Reads known before the lock (the recommendations'), as the compiler will ask for them. */
  reads: EventRangeRead[];
}

/**
 * Given `wanted (session_id, from_seq, to_seq, within_tokens)`, where each read starts (see
 * `EventRangeRead`): the first seq, or with `within_tokens` set and the range larger, the first
 * event whose running total reaches the end's total less that. A binary search over the running
 * `token_total`, one index probe per step, so a long range costs a few probes, not a scan.
 */
const READ_STARTS = `
  search (session_id, lo, hi, to_seq, reached) AS (
    SELECT wanted.session_id, wanted.from_seq,
           CASE WHEN wanted.within_tokens IS NULL OR first.token_total - first.token_count >= last.token_total - wanted.within_tokens
                THEN wanted.from_seq ELSE wanted.to_seq END,
           wanted.to_seq, last.token_total - wanted.within_tokens
    FROM wanted
    CROSS JOIN LATERAL (SELECT token_total, token_count FROM events
                        WHERE events.session_id = wanted.session_id AND events.seq = wanted.from_seq LIMIT 1) first
    CROSS JOIN LATERAL (SELECT token_total FROM events
                        WHERE events.session_id = wanted.session_id AND events.seq = wanted.to_seq LIMIT 1) last
    UNION ALL
    SELECT search.session_id,
           CASE WHEN probe.token_total >= search.reached THEN search.lo ELSE (search.lo + search.hi) / 2 + 1 END,
           CASE WHEN probe.token_total >= search.reached THEN (search.lo + search.hi) / 2 ELSE search.hi END,
           search.to_seq, search.reached
    FROM search CROSS JOIN LATERAL (SELECT token_total FROM events
                                    WHERE events.session_id = search.session_id AND events.seq = (search.lo + search.hi) / 2 LIMIT 1) probe
    WHERE search.lo < search.hi
  ),
  reads AS (SELECT session_id, lo AS from_seq, to_seq FROM search WHERE lo = hi)`;

function prefetchStatement(manager: EntityManager, query: SnapshotQuery, prefetch: EventPrefetch): Sql {
  return {
    text: prefetchText(manager),
    values: [
      query.accountId,
      query.sessionId,
      prefetch.branching,
      prefetch.initiatingEventId,
      prefetch.citedRanges.map((range) => range.fromEventId),
      prefetch.citedRanges.map((range) => range.toEventId),
      prefetch.tokenBudget,
      prefetch.recentEvents,
    ],
  };
}

// `anchor` is materialized: `wanted` uses its seq three times, and inlined, its three lookups would be started three times.
const prefetchText = textPerDataSource((manager) => `WITH RECURSIVE anchor AS MATERIALIZED (
             SELECT CASE
               WHEN $3::boolean THEN (SELECT event_count + 1 FROM sessions WHERE id = $2 AND account_id = $1)
               WHEN $4::uuid IS NOT NULL THEN (SELECT seq FROM events WHERE id = $4 AND session_id = $2)
               ELSE (SELECT seq FROM events WHERE session_id = $2 AND kind = 'USER_MESSAGE' ORDER BY seq DESC LIMIT 1)
             END AS seq
           ),
           wanted AS (
             SELECT $2::uuid AS session_id, greatest(1, anchor.seq - $8::int) AS from_seq, anchor.seq - 1 AS to_seq, NULL::int AS within_tokens
             FROM anchor WHERE anchor.seq > 1
             UNION ALL
             SELECT first.session_id, first.seq, last.seq, $7::int
             FROM unnest($5::uuid[], $6::uuid[]) AS cited (from_id, to_id)
             CROSS JOIN LATERAL (SELECT session_id, seq FROM events
                                 WHERE events.id = cited.from_id AND events.account_id = $1 LIMIT 1) first
             CROSS JOIN LATERAL (SELECT seq, token_count FROM events
                                 WHERE events.id = cited.to_id AND events.session_id = first.session_id LIMIT 1) last
             WHERE last.seq >= first.seq AND last.token_count <= $7::int
           ),
           ${READ_STARTS}
           SELECT DISTINCT ON (event.session_id, event.seq) ${columnList(manager, EventEntity, 'event')}
           FROM reads CROSS JOIN LATERAL (
             SELECT ${columnList(manager, EventEntity)} FROM events
             WHERE events.session_id = reads.session_id AND events.seq BETWEEN reads.from_seq AND reads.to_seq AND events.account_id = $1
             OFFSET 0
           ) event
           ORDER BY event.session_id, event.seq`);

/** Names the statement that reads what the prefetch did not hold, for tests that count its uses. */
export const EVENT_READS = 'wanted (session_id, from_seq, to_seq, within_tokens)';

/** The events of every read, in session and seq order, in one query: what the prefetch did not hold. */
export async function readEventRanges(manager: EntityManager, reads: EventRangeRead[]): Promise<EventEntity[]> {
  const { text, values } = eventRangesStatement(manager, reads);
  const rows = await preparedQuery<Record<string, unknown>[]>(manager, text, values);
  return rows.map((row) => entityFromRow(manager, EventEntity, row));
}

function eventRangesStatement(manager: EntityManager, reads: EventRangeRead[]): Sql {
  return {
    text: eventRangesText(manager),
    values: [
      reads.map((read) => read.sessionId),
      reads.map((read) => read.fromSeq),
      reads.map((read) => read.toSeq),
      reads.map((read) => read.withinTokens ?? null),
    ],
  };
}

const eventRangesText = textPerDataSource((manager) => `WITH RECURSIVE wanted AS (
       SELECT * FROM unnest($1::uuid[], $2::int[], $3::int[], $4::int[]) AS ${EVENT_READS}
     ),
     ${READ_STARTS}
     SELECT DISTINCT ON (event.session_id, event.seq) ${columnList(manager, EventEntity, 'event')}
     FROM reads CROSS JOIN LATERAL (
       SELECT * FROM events WHERE events.session_id = reads.session_id AND events.seq BETWEEN reads.from_seq AND reads.to_seq OFFSET 0
     ) event
     ORDER BY event.session_id, event.seq`);

/** The manifest a successor started from. */
export function successorManifest(manager: EntityManager, successorId: string): Read<ProjectionManifestEntity | null> {
  return firstOf(entitiesRead(manager, ProjectionManifestEntity, 'WHERE successor_id = $1', [successorId]));
}
