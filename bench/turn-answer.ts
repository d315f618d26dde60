import { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import { RunWrites } from '../server/src/agent/turn/run-writes';
import type { ConversationNotifier } from '../server/src/modules/conversation/notifications';
import type { RunEntity } from '../server/src/modules/conversation/run.entity';
import type { Lease } from '../server/src/modules/conversation/run.repository';
import { EventKind, eventHash, eventTokenCount } from '../server/src/modules/conversation/transcript';
import { newRowId } from '../server/src/shared/ids';
import { inTwoRoundTrips, Statement } from './database';
import { prepareTurns, QueuedTurn } from './turn-context';

/** The answer each turn writes: a paragraph, as the built-in agent's are. */
export const ANSWER_TEXT =
  'The export now selects receipts by their arrival time, so the ones that come in after midnight are in the next morning’s report ' +
  'instead of a day late. The retry limit stays at three and every skipped receipt is logged with its id.';
const ANSWER_TOKENS = eventTokenCount(ANSWER_TEXT, null);
const LEASE_OWNER = 'bench-worker';

/** Turns claimed by a worker (RUNNING under a lease that lasts the benchmark), each to be answered once. */
export async function prepareRunningTurns(pool: Pool, accountId: string, count: number): Promise<QueuedTurn[]> {
  const turns = await prepareTurns(pool, accountId, count);
  await pool.query(
    `UPDATE runs SET status = 'RUNNING', attempt = 1, lease_owner = $2, lease_expires_at = now() + interval '1 day', started_at = now()
     WHERE id = ANY($1::uuid[])`,
    [turns.map((turn) => turn.id), LEASE_OWNER],
  );
  return turns;
}

const leaseOf = (turn: QueuedTurn): Lease => ({ runId: turn.id, owner: LEASE_OWNER, attempt: 1 });

/** Nothing listens in the benchmark: the writes are measured, not the announcements after them. */
const unheard: ConversationNotifier = { eventsAppended: () => undefined, runsChanged: () => undefined, runOutputAppended: () => undefined };

/** The runtime's own write of a turn's answer, as its worker calls it when the model has answered. */
export function serverAnswerWriter(dataSource: DataSource): (turn: QueuedTurn) => Promise<void> {
  const writes = new RunWrites(dataSource, unheard);
  return (turn) => writes.answer(leaseOf(turn), { ...turn, status: 'RUNNING' } as RunEntity, turn.sessionId, ANSWER_TEXT);
}

/**
 * The least any runtime must send for the same answer, by hand in two round trips: the session's
 * lock, then the answer appended to the chain, the session's totals and the run settled under its
 * lease, with the commit. Returns the number of statements sent.
 */
export function answerInSql(pool: Pool, turn: QueuedTurn): Promise<number> {
  const lock: Statement = ['SELECT event_count, token_count, last_event_hash FROM sessions WHERE id = $1 AND account_id = $2 FOR UPDATE', [turn.sessionId, turn.accountId]];
  return inTwoRoundTrips(pool, lock, (rows) => {
    const session = rows[0] as { event_count: number; token_count: number; last_event_hash: string };
    const now = new Date();
    const seq = session.event_count + 1;
    const tokenTotal = session.token_count + ANSWER_TOKENS;
    const hash = eventHash(session.last_event_hash, {
      sessionId: turn.sessionId,
      seq,
      kind: EventKind.ASSISTANT_MESSAGE,
      text: ANSWER_TEXT,
      data: null,
      toolCallId: null,
      replayOfId: null,
      createdAt: now,
    });
    return [
      [
        `INSERT INTO events (id, session_id, account_id, seq, kind, text, token_count, token_total, hash, created_at)
         VALUES ($1, $2, $3, $4, 'ASSISTANT_MESSAGE', $5, $6, $7, $8, $9)`,
        [newRowId(), turn.sessionId, turn.accountId, seq, ANSWER_TEXT, ANSWER_TOKENS, tokenTotal, hash, now],
      ],
      ['UPDATE sessions SET event_count = $2, token_count = $3, last_event_hash = $4 WHERE id = $1', [turn.sessionId, seq, tokenTotal, hash]],
      [
        `UPDATE runs SET status = 'SUCCEEDED', output = $3, lease_owner = NULL, lease_expires_at = NULL, finished_at = $4, updated_at = $4
         WHERE id = $1 AND lease_owner = $2 AND status = 'RUNNING'`,
        [turn.id, LEASE_OWNER, ANSWER_TEXT, now],
      ],
    ];
  });
}
