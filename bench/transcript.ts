import { randomUUID } from 'node:crypto';
import { Pool, PoolClient } from 'pg';
import { EventKind, eventHash } from '../server/src/modules/conversation/transcript';

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

/** Rows for a session's messages from seq 1: running token totals and the server's hash chain. */
export function chainMessages(sessionId: string, drafts: MessageDraft[]): MessageRow[] {
  let hash = '';
  let total = 0;
  return drafts.map((draft, index) => {
    const seq = index + 1;
    hash = eventHash(hash, { sessionId, seq, kind: draft.kind, text: draft.text, data: null, toolCallId: null, replayOfId: null, createdAt: draft.createdAt });
    total += draft.tokenCount;
    return { id: randomUUID(), sessionId, seq, kind: draft.kind, text: draft.text, tokenCount: draft.tokenCount, tokenTotal: total, hash, createdAt: draft.createdAt.toISOString() };
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
