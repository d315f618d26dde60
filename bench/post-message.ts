import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { EventKind, eventHash, eventTokenCount } from '../server/src/modules/conversation/transcript';
import { inTwoRoundTrips, Statement } from './database';
import { GraphQLClient } from './graphql';
import { newRowId } from '../server/src/shared/ids';

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
 * once per text beforehand), update the counters, and, when `queuesTurn`, queue the agent's run;
 * in two round trips (`inTwoRoundTrips`). New rows get their ids from `newId` (the server's, unless a
 * benchmark compares another). Returns the number of statements sent.
 */
export function postInSql(pool: Pool, accountId: string, sessionId: string, text: string, queuesTurn: boolean, newId = newRowId): Promise<number> {
  const lock: Statement = ['SELECT event_count, token_count, last_event_hash FROM sessions WHERE id = $1 AND account_id = $2 FOR UPDATE', [sessionId, accountId]];
  return inTwoRoundTrips(pool, lock, (rows) => {
    const session = rows[0] as { event_count: number; token_count: number; last_event_hash: string } | undefined;
    if (!session) throw new Error(`No session ${sessionId} in account ${accountId}`);
    const now = new Date();
    const seq = session.event_count + 1;
    const tokenCount = TOKENS.get(text) ?? eventTokenCount(text, null);
    const hash = eventHash(session.last_event_hash, { sessionId, seq, kind: EventKind.USER_MESSAGE, text, data: null, toolCallId: null, replayOfId: null, createdAt: now });
    const eventId = newId();
    const tokenTotal = session.token_count + tokenCount;
    const writes: Statement[] = [
      [
        `INSERT INTO events (id, session_id, account_id, seq, kind, text, token_count, token_total, hash, client_message_id, created_at)
         VALUES ($1, $2, $3, $4, 'USER_MESSAGE', $5, $6, $7, $8, $9, $10)`,
        [eventId, sessionId, accountId, seq, text, tokenCount, tokenTotal, hash, randomUUID(), now],
      ],
      ['UPDATE sessions SET event_count = $2, token_count = $3, last_event_hash = $4 WHERE id = $1', [sessionId, seq, tokenTotal, hash]],
    ];
    if (queuesTurn) {
      writes.push([
        `INSERT INTO runs (id, account_id, session_id, kind, status, trigger_event_id, attempt, created_at, updated_at)
         VALUES ($1, $2, $3, 'TURN', 'QUEUED', $4, 0, $5, $5)`,
        [newId(), accountId, sessionId, eventId, now],
      ]);
    }
    return writes;
  });
}
