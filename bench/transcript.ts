import { Pool, PoolClient } from 'pg';
import { EventKind, eventHash } from '../server/src/modules/conversation/transcript';
import { newRowId } from '../server/src/shared/ids';

/** A message to write, its token count computed beforehand with the server's `eventTokenCount`. */
export interface MessageDraft {
  kind: EventKind;
  text: string;
  tokenCount: number;
  createdAt: Date;
}

/** An event row as posting the message would have written it. */
export interface MessageRow {
  id: string;
  sessionId: string;
  seq: number;
  kind: EventKind;
  text: string;
  tokenCount: number;
  tokenTotal: number;
  hash: string;
  createdAt: string;
}

/** Rows for a session's messages from seq 1: running token totals and the server's hash chain; ids from `newId`. */
export function chainMessages(sessionId: string, drafts: MessageDraft[], newId = newRowId): MessageRow[] {
  let hash = '';
  let total = 0;
  return drafts.map((draft, index) => {
    const seq = index + 1;
    hash = eventHash(hash, { sessionId, seq, kind: draft.kind, text: draft.text, data: null, toolCallId: null, replayOfId: null, createdAt: draft.createdAt });
    total += draft.tokenCount;
    return { id: newId(), sessionId, seq, kind: draft.kind, text: draft.text, tokenCount: draft.tokenCount, tokenTotal: total, hash, createdAt: draft.createdAt.toISOString() };
  });
}

/** Rows per statement: large enough to amortise round trips, small enough for modest parameter sizes. */
const INSERT_BATCH = 5_000;

/** Inserts `rows` with one multi-row statement per batch; inside a transaction when `db` holds one. */
export async function insertMessages(db: Pool | PoolClient, accountId: string, rows: MessageRow[]): Promise<void> {
  for (let offset = 0; offset < rows.length; offset += INSERT_BATCH) {
    const batch = rows.slice(offset, offset + INSERT_BATCH);
    await db.query(
      `INSERT INTO events (id, session_id, account_id, seq, kind, text, token_count, token_total, hash, created_at)
       SELECT e.id, e.session_id, $10, e.seq, e.kind, e.text, e.token_count, e.token_total, e.hash, e.created_at
       FROM unnest($1::uuid[], $2::uuid[], $3::int[], $4::text[], $5::text[], $6::int[], $7::int[], $8::text[], $9::timestamptz[])
         AS e (id, session_id, seq, kind, text, token_count, token_total, hash, created_at)`,
      [
        batch.map((row) => row.id),
        batch.map((row) => row.sessionId),
        batch.map((row) => row.seq),
        batch.map((row) => row.kind),
        batch.map((row) => row.text),
        batch.map((row) => row.tokenCount),
        batch.map((row) => row.tokenTotal),
        batch.map((row) => row.hash),
        batch.map((row) => row.createdAt),
        accountId,
      ],
    );
  }
}

/** A root session to write in bulk, holding `rows` (from `chainMessages`) as its messages. */
export interface RootSessionRows {
  id: string;
  title: string;
  createdAt: string;
  rows: MessageRow[];
}

/** Inserts root sessions and their messages, counters and hash chain heads as posting them would leave them. */
export async function insertRootSessions(db: Pool | PoolClient, accountId: string, sessions: RootSessionRows[]): Promise<void> {
  const last = (session: RootSessionRows) => session.rows[session.rows.length - 1];
  await db.query(
    `INSERT INTO sessions (id, account_id, kind, status, title, created_at, event_count, token_count, last_event_hash, origin_id)
     SELECT s.id, $2, 'ROOT', 'ACTIVE', s.title, s.created_at, s.event_count, s.token_count, s.hash, s.id
     FROM unnest($1::uuid[], $3::text[], $4::timestamptz[], $5::int[], $6::int[], $7::text[]) AS s (id, title, created_at, event_count, token_count, hash)`,
    [
      sessions.map((session) => session.id),
      accountId,
      sessions.map((session) => session.title),
      sessions.map((session) => session.createdAt),
      sessions.map((session) => session.rows.length),
      sessions.map((session) => last(session).tokenTotal),
      sessions.map((session) => last(session).hash),
    ],
  );
  await insertMessages(db, accountId, sessions.flatMap((session) => session.rows));
}
