import type { ManifestContent } from '../continuation/projection/manifest';
import type { StoredEdge, StoredEvent, StoredRun, StoredSession } from './invariants';
import type { EventKind } from '../conversation/transcript';

/** Runs one SQL statement and returns its rows: a TypeORM DataSource's `query`, or a `pg` client's rows. */
export type SqlQuery = (text: string, parameters: unknown[]) => Promise<Record<string, unknown>[]>;

/** The smallest uuid: every keyset walk starts after it. */
const BEFORE_ALL = '00000000-0000-0000-0000-000000000000';

/**
 * Rows of one statement page by page, by keyset: `statement` takes the last key seen as $1 and
 * the page size as $2 and orders by that key. Only one page is held at a time.
 */
async function* pages<Row>(
  query: SqlQuery,
  statement: string,
  pageSize: number,
  first: unknown[],
  keyOf: (row: Row) => unknown[],
  map: (row: Record<string, unknown>) => Row,
): AsyncGenerator<Row> {
  let after = first;
  for (;;) {
    const rows = (await query(statement, [...after, pageSize])).map(map);
    yield* rows;
    if (rows.length < pageSize) return;
    after = keyOf(rows[rows.length - 1]);
  }
}

export function sessions(query: SqlQuery, pageSize: number): AsyncGenerator<StoredSession> {
  return pages(
    query,
    `SELECT s.id, s.status, s.event_count, s.last_event_hash,
            (SELECT count(*)::int FROM continuation_edges e WHERE e.predecessor_id = s.id) AS successors
     FROM sessions s WHERE s.id > $1 ORDER BY s.id LIMIT $2`,
    pageSize,
    [BEFORE_ALL],
    (session) => [session.id],
    (row) => ({
      id: row.id as string,
      status: row.status as string,
      eventCount: row.event_count as number,
      lastEventHash: row.last_event_hash as string,
      successorCount: row.successors as number,
    }),
  );
}

/** Every event, ordered as `sessions` orders their sessions, then by seq. */
export function events(query: SqlQuery, pageSize: number): AsyncGenerator<StoredEvent> {
  return pages(
    query,
    `SELECT id, session_id, seq, kind, text, data, tool_call_id, replay_of_id, created_at, attachment_cids, hash, erased_at
     FROM events WHERE (session_id, seq) > ($1, $2) ORDER BY session_id, seq LIMIT $3`,
    pageSize,
    [BEFORE_ALL, 0],
    (event) => [event.sessionId, event.seq],
    (row) => ({
      id: row.id as string,
      sessionId: row.session_id as string,
      seq: row.seq as number,
      kind: row.kind as EventKind,
      text: row.text as string | null,
      data: row.data,
      toolCallId: row.tool_call_id as string | null,
      replayOfId: row.replay_of_id as string | null,
      createdAt: row.created_at as Date,
      attachmentCids: row.attachment_cids as string[],
      hash: row.hash as string,
      erasedAt: row.erased_at as Date | null,
    }),
  );
}

export function edges(query: SqlQuery, pageSize: number): AsyncGenerator<StoredEdge> {
  return pages(
    query,
    `SELECT e.id, e.predecessor_id, e.successor_id, e.initiating_event_id,
            m.id AS manifest_id, m.predecessor_id AS manifest_predecessor_id, m.successor_id AS manifest_successor_id,
            m.initiating_event_id AS manifest_initiating_event_id,
            (SELECT card.id FROM events card
              WHERE card.session_id = e.predecessor_id AND card.kind = 'CONTINUATION'
                AND card.data->>'role' = 'transition_card' AND card.data->>'edgeId' = e.id::text
              LIMIT 1) AS transition_card_id,
            banner.id AS banner_id, banner.kind AS banner_kind, banner.data AS banner_data,
            opening.id AS opening_id, opening.kind AS opening_kind, opening.text AS opening_text,
            opening.replay_of_id AS opening_replay_of_id, opening.attachment_cids AS opening_attachment_cids,
            opening.erased_at IS NOT NULL AS opening_erased, initiating.erased_at IS NOT NULL AS initiating_erased,
            initiating.text AS initiating_text, initiating.attachment_cids AS initiating_attachment_cids
     FROM continuation_edges e
     LEFT JOIN projection_manifests m ON m.edge_id = e.id
     LEFT JOIN events banner ON banner.session_id = e.successor_id AND banner.seq = 1
     LEFT JOIN events opening ON opening.session_id = e.successor_id AND opening.seq = 2
     LEFT JOIN events initiating ON initiating.id = e.initiating_event_id
     WHERE e.id > $1 ORDER BY e.id LIMIT $2`,
    pageSize,
    [BEFORE_ALL],
    (edge) => [edge.id],
    (row) => ({
      id: row.id as string,
      predecessorId: row.predecessor_id as string,
      successorId: row.successor_id as string,
      initiatingEventId: row.initiating_event_id as string,
      manifest: row.manifest_id
        ? {
            id: row.manifest_id as string,
            predecessorId: row.manifest_predecessor_id as string,
            successorId: row.manifest_successor_id as string,
            initiatingEventId: row.manifest_initiating_event_id as string,
          }
        : null,
      transitionCardId: row.transition_card_id as string | null,
      banner: row.banner_id ? { id: row.banner_id as string, kind: row.banner_kind as string, data: row.banner_data } : null,
      opening: row.opening_id
        ? {
            id: row.opening_id as string,
            kind: row.opening_kind as string,
            text: row.opening_text as string | null,
            replayOfId: row.opening_replay_of_id as string | null,
            attachmentCids: row.opening_attachment_cids as string[],
            erased: row.opening_erased as boolean,
          }
        : null,
      initiatingText: row.initiating_text as string | null,
      initiatingErased: row.initiating_erased as boolean,
      initiatingAttachmentCids: row.initiating_attachment_cids as string[] | null,
    }),
  );
}

export function manifests(query: SqlQuery, pageSize: number): AsyncGenerator<ManifestContent & { hash: string; erasedAt: Date | null }> {
  return pages(
    query,
    `SELECT * FROM projection_manifests WHERE id > $1 ORDER BY id LIMIT $2`,
    pageSize,
    [BEFORE_ALL],
    (manifest) => [manifest.id],
    (row) => ({
      id: row.id as string,
      edgeId: row.edge_id as string,
      predecessorId: row.predecessor_id as string,
      successorId: row.successor_id as string,
      originId: row.origin_id as string,
      initiatingEventId: row.initiating_event_id as string,
      actor: row.actor as string,
      reason: row.reason as string,
      handoff: row.handoff,
      sources: row.sources,
      items: row.items,
      transferredState: row.transferred_state,
      lineageBlock: row.lineage_block as string,
      context: row.context,
      compilerVersion: row.compiler_version as string,
      modelVersion: row.model_version as string,
      tokenBudget: row.token_budget as number,
      tokenCost: row.token_cost as number,
      createdAt: (row.created_at as Date).toISOString(),
      ...(row.proposal != null ? { proposal: row.proposal } : {}),
      hash: row.hash as string,
      erasedAt: row.erased_at as Date | null,
    }),
  );
}

export function runs(query: SqlQuery, pageSize: number): AsyncGenerator<StoredRun> {
  return pages(
    query,
    `SELECT id, session_id, status, lease_owner, lease_expires_at FROM runs WHERE id > $1 ORDER BY id LIMIT $2`,
    pageSize,
    [BEFORE_ALL],
    (run) => [run.id],
    (row) => ({
      id: row.id as string,
      sessionId: row.session_id as string,
      status: row.status as string,
      leaseOwner: row.lease_owner as string | null,
      leaseExpiresAt: row.lease_expires_at as Date | null,
    }),
  );
}

/** The database's clock: leases are stamped with it. */
export async function databaseNow(query: SqlQuery): Promise<Date> {
  const [row] = await query('SELECT now() AS now', []);
  return row.now as Date;
}
