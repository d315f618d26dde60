import { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import type { ModelProvider } from '../server/src/agent/agent';
import { BuiltinAgent } from '../server/src/agent/providers/builtin-agent';
import { TurnContextLoader } from '../server/src/agent/turn/turn-context';
import { transcriptMessages } from '../server/src/agent/model-context';
import { DEFAULT_AGENT_CONFIG } from '../server/src/config';
import { AttachmentService } from '../server/src/modules/attachments/attachments.service';
import { DEFAULT_ATTACHMENT_MAX_BYTES } from '../server/src/modules/attachments/attachments';
import { DatabaseAttachmentStorage } from '../server/src/modules/attachments/storage/database-storage';
import type { RunEntity } from '../server/src/modules/conversation/run.entity';
import { EventKind, eventTokenCount } from '../server/src/modules/conversation/transcript';
import { chainMessages, insertMessages } from './transcript';
import { newRowId } from '../server/src/shared/ids';

/** A queued turn: the run as the worker claims it. */
export type QueuedTurn = Pick<RunEntity, 'id' | 'accountId' | 'sessionId' | 'kind' | 'triggerEventId' | 'childSessionId'>;

const USER_TEXTS = [
  'Can you check how the nightly export handles receipts that arrive after midnight?',
  'Keep the retry limit at three and log every skipped receipt with its id.',
  'The export should write to the eu-west bucket, not the default one. Please confirm that the credentials allow it and tell me what else changes.',
];
const ASSISTANT_TEXT =
  'I read the export job and its scheduler. Receipts that arrive after midnight are picked up by the next run, because the job ' +
  'selects by the receipt date rather than the arrival time; nothing is lost, but they are a day late in the report. Changing ' +
  'the selection to the arrival time fixes it without touching the report format.';
/**
 * Events per session: a conversation of 20 exchanges by default, ending on the message the turn
 * answers. TURN_EVENTS sets another length (odd, so that it ends on a user message).
 */
const EVENTS = Number(process.env.TURN_EVENTS ?? 41);
if (!Number.isInteger(EVENTS) || EVENTS < 1 || EVENTS % 2 === 0) {
  console.error(`TURN_EVENTS must be an odd number of events, at least 1: ${process.env.TURN_EVENTS}`);
  process.exit(2);
}
const PREPARE_BATCH = 200;

/** Sessions with a conversation and a queued turn for its last message, written in bulk as posting them would have. */
export async function prepareTurns(pool: Pool, accountId: string, count: number): Promise<QueuedTurn[]> {
  const turns: QueuedTurn[] = [];
  for (let offset = 0; offset < count; offset += PREPARE_BATCH) {
    const batch = Array.from({ length: Math.min(PREPARE_BATCH, count - offset) }, () => {
      const sessionId = newRowId();
      const startedAt = Date.now();
      const rows = chainMessages(
        sessionId,
        Array.from({ length: EVENTS }, (_, seq) => {
          const kind = seq % 2 === 0 ? EventKind.USER_MESSAGE : EventKind.ASSISTANT_MESSAGE;
          const text = kind === EventKind.USER_MESSAGE ? USER_TEXTS[(seq / 2) % USER_TEXTS.length] : ASSISTANT_TEXT;
          return { kind, text, tokenCount: eventTokenCount(text, null), createdAt: new Date(startedAt + seq) };
        }),
      );
      const last = rows[rows.length - 1];
      return { sessionId, rows, turn: { id: newRowId(), accountId, sessionId, kind: 'TURN', triggerEventId: last.id, childSessionId: null } as QueuedTurn };
    });
    await pool.query(
      `INSERT INTO sessions (id, account_id, kind, status, title, created_at, event_count, token_count, last_event_hash, origin_id)
       SELECT s.id, $2, 'ROOT', 'ACTIVE', 'Export receipts', now(), $3, s.tokens, s.hash, s.id
       FROM unnest($1::uuid[], $4::int[], $5::text[]) AS s (id, tokens, hash)`,
      [
        batch.map(({ sessionId }) => sessionId),
        accountId,
        EVENTS,
        batch.map(({ rows }) => rows[rows.length - 1].tokenTotal),
        batch.map(({ rows }) => rows[rows.length - 1].hash),
      ],
    );
    await insertMessages(pool, accountId, batch.flatMap(({ rows }) => rows));
    await pool.query(
      `INSERT INTO runs (id, account_id, session_id, kind, status, trigger_event_id, created_at, updated_at)
       SELECT r.id, $2, r.session_id, 'TURN', 'QUEUED', r.trigger_event_id, now(), now()
       FROM unnest($1::uuid[], $3::uuid[], $4::uuid[]) AS r (id, session_id, trigger_event_id)`,
      [batch.map(({ turn }) => turn.id), accountId, batch.map(({ turn }) => turn.sessionId), batch.map(({ turn }) => turn.triggerEventId)],
    );
    turns.push(...batch.map(({ turn }) => turn));
  }
  return turns;
}

/** The server's own loader of a turn's context, as the worker of a process with the built-in agent builds it. */
export function serverTurnLoader(dataSource: DataSource): TurnContextLoader {
  const storage = new DatabaseAttachmentStorage(dataSource);
  const attachments = new AttachmentService(dataSource, storage, storage, DEFAULT_ATTACHMENT_MAX_BYTES);
  const provider: ModelProvider = new BuiltinAgent();
  return new TurnContextLoader(dataSource, attachments, provider, {
    windowTokens: DEFAULT_AGENT_CONFIG.windowTokens,
    threshold: DEFAULT_AGENT_CONFIG.continuationThreshold,
  });
}

/**
 * The least a runtime must read for the same turn of a root session, by hand: the session and
 * the message the turn answers, the transcript's tail within the window, the open plan and the
 * pending delegated runs, in three round trips; the tail becomes chat messages as the server's do.
 */
export async function loadTurnInSql(pool: Pool, turn: QueuedTurn, windowTokens: number): Promise<number> {
  const { rows } = await pool.query(
    `SELECT s.title, s.event_count, s.token_count, e.seq, e.token_total, e.text
     FROM sessions s JOIN events e ON e.id = $2 WHERE s.id = $1`,
    [turn.sessionId, turn.triggerEventId],
  );
  const head = rows[0];
  const [tail, state] = await Promise.all([
    pool.query(
      `SELECT seq, kind, text, data, tool_call_id, attachment_cids FROM events
       WHERE session_id = $1 AND seq BETWEEN 1 AND $2 AND token_total > $3 ORDER BY seq`,
      [turn.sessionId, head.seq, head.token_total - windowTokens],
    ),
    pool.query(
      `SELECT (SELECT row_to_json(p) FROM plan_revisions p WHERE p.session_id = $1 ORDER BY p.revision DESC LIMIT 1) AS plan,
              ARRAY(SELECT id FROM runs WHERE session_id = $1 AND kind = 'DELEGATED' AND status IN ('QUEUED', 'RUNNING')) AS pending`,
      [turn.sessionId],
    ),
  ]);
  const messages = transcriptMessages(
    tail.rows.map((row) => ({ seq: row.seq, kind: row.kind, text: row.text, data: row.data, toolCallId: row.tool_call_id, attachmentCids: row.attachment_cids })),
  );
  return messages.length + (state.rows[0].plan ? 1 : 0);
}
