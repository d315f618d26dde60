import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { EventKind, eventHash, eventTokenCount } from '../server/src/modules/conversation/transcript';
import { GraphQLClient } from './graphql';

/** What people write, in turn: a few lengths of ordinary chat. */
export const MESSAGE_TEXTS = [
  'Can you check how the nightly export handles receipts that arrive after midnight?',
  'Thanks. Keep the retry limit at three and log every skipped receipt with its id.',
  'One more thing: the export should write to the eu-west bucket, not the default one. Please confirm that the credentials allow it and tell me what else changes.',
  'Sounds good.',
];

const POST = `mutation ($input: PostMessageInput!) { postMessage(input: $input) {
  __typename
  ... on PostMessageSuccess { event { id } }
  ... on OperationError { code message }
} }`;

/** One postMessage over HTTP; the new event's id. */
export async function postOverHttp(client: GraphQLClient, sessionId: string, text: string): Promise<string> {
  const { postMessage } = await client.data<{ postMessage: { __typename: string; event?: { id: string }; code?: string; message?: string } }>(
    POST,
    { input: { sessionId, text, clientMessageId: randomUUID() } },
  );
  if (!postMessage.event) throw new Error(`postMessage failed: ${postMessage.code} ${postMessage.message}`);
  return postMessage.event.id;
}

const TOKENS = new Map(MESSAGE_TEXTS.map((text) => [text, eventTokenCount(text, null)]));

/**
 * The rows one postMessage writes, in one hand-written transaction with no checks: lock the
 * session, insert the event with its hash (the server's hash function) and token count (counted
 * once per text beforehand), update the counters, and, when `queuesTurn`, queue the agent's run.
 * Returns the number of statements sent.
 */
export async function postInSql(pool: Pool, accountId: string, sessionId: string, text: string, queuesTurn: boolean): Promise<number> {
  const client = await pool.connect();
  let statements = 0;
  const send = (sql: string, values?: unknown[]) => {
    statements += 1;
    return client.query(sql, values);
  };
  try {
    await send('BEGIN');
    const { rows } = await send(
      'SELECT event_count, token_count, last_event_hash FROM sessions WHERE id = $1 AND account_id = $2 FOR UPDATE',
      [sessionId, accountId],
    );
    if (!rows[0]) throw new Error(`No session ${sessionId} in account ${accountId}`);
    const now = new Date();
    const seq = rows[0].event_count + 1;
    const tokenCount = TOKENS.get(text) ?? eventTokenCount(text, null);
    const clientMessageId = randomUUID();
    const hash = eventHash(rows[0].last_event_hash, {
      sessionId,
      seq,
      kind: EventKind.USER_MESSAGE,
      text,
      data: null,
      toolCallId: null,
      replayOfId: null,
      createdAt: now,
    });
    const eventId = randomUUID();
    await send(
      `INSERT INTO events (id, session_id, account_id, seq, kind, text, token_count, token_total, hash, client_message_id, created_at)
       VALUES ($1, $2, $3, $4, 'USER_MESSAGE', $5, $6, $7, $8, $9, $10)`,
      [eventId, sessionId, accountId, seq, text, tokenCount, rows[0].token_count + tokenCount, hash, clientMessageId, now],
    );
    await send('UPDATE sessions SET event_count = $2, token_count = $3, last_event_hash = $4 WHERE id = $1', [
      sessionId,
      seq,
      rows[0].token_count + tokenCount,
      hash,
    ]);
    if (queuesTurn) {
      await send(
        `INSERT INTO runs (id, account_id, session_id, kind, status, trigger_event_id, attempt, created_at, updated_at)
         VALUES ($1, $2, $3, 'TURN', 'QUEUED', $4, 0, $5, $5)`,
        [randomUUID(), accountId, sessionId, eventId, now],
      );
    }
    await send('COMMIT');
    return statements;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
