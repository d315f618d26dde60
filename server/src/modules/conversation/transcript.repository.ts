import { EntityManager } from 'typeorm';
import { RunKind } from './runs';
import { storableText, storableValue } from '../../shared/text';
import { EventKind, eventHash, eventTokenCount } from './transcript';
import { EventEntity } from './event.entity';
import { RunEntity } from './run.entity';
import { SessionEntity } from './session.entity';
import { preparedQuery } from '../../platform/db/prepared';
import { columnList, entitiesRead, entityFromRow, firstOf, textPerDataSource } from '../../platform/db/rows';
import type { Read } from '../../platform/db/read-batch';
import { WriteTransaction } from '../../platform/db/write-transaction';
import { CombinedStatement } from '../../platform/db/statement';
import { enqueueWebhooks, hasActiveEndpoint } from '../webhooks/webhook.repository';
import { messagesPosted } from './webhook-events';
import { newRowId } from '../../shared/ids';
import { keepCanonicalJson } from '../../shared/canonical-json';

/** What a caller supplies to append one event; seq, hash, token count and time are assigned here. */
export interface EventDraft {
  kind: EventKind;
  text: string | null;
  data?: object | null;
  toolCallId?: string | null;
  replayOfId?: string | null;
  clientMessageId?: string | null;
  /** Cids of the attachments a user message links, in order. */
  attachmentCids?: string[];
  /** Its token count when known already: a replayed message counts as its original. */
  tokenCount?: number;
}

/**
 * Locks the account's session row for the rest of the transaction, or returns null when there is
 * no such session in the account. Appends to one session are serialized by this lock, which is
 * what keeps `seq` gap-free and the hash chain linear under concurrent writers.
 */
export async function lockSession(manager: EntityManager, accountId: string, sessionId: string): Promise<SessionEntity | null> {
  const rows = await preparedQuery(
    manager,
    `SELECT ${columnList(manager, SessionEntity)} FROM sessions WHERE id = $1 AND account_id = $2 FOR UPDATE`,
    [sessionId, accountId],
  );
  return rows.length ? entityFromRow(manager, SessionEntity, rows[0]) : null;
}

/**
 * The statement that opens a run's write: locks the session it writes to ({@link lockSession}),
 * in the run's account, and reads whether that account has a webhook endpoint. No row when there is
 * no such session or no such run.
 */
export function lockSessionForRun(manager: EntityManager, sessionId: string, runId: string): { text: string; values: unknown[] } {
  return { text: runSessionLockText(manager), values: [sessionId, runId] };
}

const runSessionLockText = textPerDataSource(
  (manager) => `SELECT ${columnList(manager, SessionEntity)}, ${hasActiveEndpoint('sessions.account_id')} AS has_webhook_endpoint
  FROM sessions WHERE id = $1 AND account_id = (SELECT account_id FROM runs WHERE id = $2) FOR UPDATE`,
);

/** A session locked for a new message, and what an earlier post with the same client message id stored. */
export interface LockedForMessage {
  session: SessionEntity | null;
  earlier: EventEntity | null;
  /** The turn run the earlier message queued, if any. */
  earlierRun: RunEntity | null;
  /** Whether the account had a webhook endpoint as the lock was taken: without one, the message needs no outbox. */
  hasWebhookEndpoint: boolean;
}

interface LockedForMessageRow extends Record<string, unknown> {
  changed_while_waiting: boolean;
  earlier: Record<string, unknown> | null;
  has_webhook_endpoint: boolean;
}

/**
 * One level, no CTE: every subquery a statement holds is set up on each run, used or not, and a
 * message's lock runs more often than anything else. The earlier message's run is read only when
 * there is an earlier message (a client's retry).
 */
const messageLockText = textPerDataSource((manager) => `SELECT ${columnList(manager, SessionEntity)},
    xmin <> (SELECT seen.xmin FROM sessions seen WHERE seen.id = $1) AS changed_while_waiting,
    (SELECT row_to_json(earlier) FROM (
       SELECT ${columnList(manager, EventEntity)} FROM events WHERE session_id = $1 AND client_message_id = $3 LIMIT 1
     ) earlier) AS earlier,
    ${hasActiveEndpoint('$2')} AS has_webhook_endpoint
  FROM sessions WHERE id = $1 AND account_id = $2 FOR UPDATE`);

/**
 * Opens the transaction by locking the session ({@link lockSession}) and reads an earlier message
 * with `clientMessageId` in the same round trip. That read sees the database as of the statement's
 * start, as does the subquery that reads the session's row version: when another writer committed
 * to the session while this one waited for the lock, the locked row is a later version than the
 * one the statement saw, and the earlier message is read again.
 */
export async function lockForMessage(
  transaction: WriteTransaction,
  accountId: string,
  sessionId: string,
  clientMessageId: string | null,
): Promise<LockedForMessage> {
  const manager = transaction.manager;
  const [[row]] = await transaction.begin({
    text: messageLockText(manager),
    values: [sessionId, accountId, clientMessageId],
  });
  if (!row) return { session: null, earlier: null, earlierRun: null, hasWebhookEndpoint: false };
  const locked = row as LockedForMessageRow;
  const hasWebhookEndpoint = locked.has_webhook_endpoint;
  const session = entityFromRow(manager, SessionEntity, locked);
  let earlier = locked.earlier ? entityFromRow(manager, EventEntity, locked.earlier) : null;
  if (locked.changed_while_waiting && clientMessageId !== null) earlier = await manager.findOneBy(EventEntity, { sessionId, clientMessageId });
  const earlierRun = earlier ? await manager.findOneBy(RunEntity, { triggerEventId: earlier.id, kind: RunKind.TURN }) : null;
  return { session, earlier, earlierRun, hasWebhookEndpoint };
}

/** The events that drafts become after `session`'s last event, and the session's totals after them. */
export function chainEvents(session: SessionEntity, drafts: EventDraft[]) {
  const events: EventEntity[] = [];
  let previousHash = session.lastEventHash;
  let seq = session.eventCount;
  let tokens = session.tokenCount;
  for (const written of drafts) {
    // Requests with such text are refused before this; what a model or a tool produced is mended.
    const draft = { ...written, text: written.text === null ? null : storableText(written.text), data: storableValue(written.data) };
    seq += 1;
    // Kept: the insert writes the payload's column from it.
    const payload = draft.data == null ? null : keepCanonicalJson(draft.data);
    const event = Object.assign(new EventEntity(), {
      id: newRowId(),
      sessionId: session.id,
      accountId: session.accountId,
      seq,
      kind: draft.kind,
      text: draft.text,
      data: draft.data ?? null,
      toolCallId: draft.toolCallId ?? null,
      replayOfId: draft.replayOfId ?? null,
      clientMessageId: draft.clientMessageId ?? null,
      createdAt: new Date(),
      attachmentCids: draft.attachmentCids ?? [],
      erasedAt: null,
      tokenCount: draft.tokenCount ?? eventTokenCount(draft.text, draft.data, payload),
    });
    event.hash = eventHash(previousHash, event, payload);
    previousHash = event.hash;
    tokens += event.tokenCount;
    event.tokenTotal = tokens;
    events.push(event);
  }
  return { events, totals: { eventCount: seq, tokenCount: tokens, lastEventHash: previousHash } };
}

/**
 * Adds to `statement` the events {@link chainEvents} made for a session locked in its transaction,
 * and the session's totals after them.
 */
export function withAppended(statement: CombinedStatement, sessionId: string, { events, totals }: ReturnType<typeof chainEvents>): CombinedStatement {
  return statement
    .insert(EventEntity, events)
    .raw('UPDATE sessions SET event_count = $1, token_count = $2, last_event_hash = $3 WHERE id = $4', [
      totals.eventCount,
      totals.tokenCount,
      totals.lastEventHash,
      sessionId,
    ]);
}

/**
 * Appends events to a session locked with {@link lockSession} in the same transaction, and
 * advances the session's running totals, applying `changes` to the session in the same update.
 * Returns the stored events in order. Messages among them are announced through the webhook outbox.
 */
export async function appendEvents(
  manager: EntityManager,
  session: SessionEntity,
  drafts: EventDraft[],
  changes: Pick<Partial<SessionEntity>, 'status'> = {},
): Promise<EventEntity[]> {
  const { events, totals } = chainEvents(session, drafts);
  await manager.insert(EventEntity, events);
  await manager.update(SessionEntity, { id: session.id }, { ...totals, ...changes });
  await enqueueWebhooks(manager, messagesPosted(events));
  Object.assign(session, totals, changes);
  return events;
}

/** What a turn's context reads of each event of its history: no ids, hashes or times to decode. */
export type TailEvent = Pick<EventEntity, 'seq' | 'kind' | 'text' | 'data' | 'toolCallId' | 'attachmentCids' | 'tokenCount' | 'tokenTotal' | 'erasedAt'>;

/**
 * Events `fromSeq..throughSeq` of a session, oldest first, leaving out the oldest ones whose
 * running token total is at or below `afterTokens`: the tail of a transcript that fits a budget.
 * Only the columns a model's context is made of: a tail runs to thousands of events, and reading
 * every column of each cost a turn most of its time.
 */
export function transcriptTail(sessionId: string, range: { fromSeq: number; throughSeq: number }, afterTokens: number): Read<TailEvent[]> {
  return {
    text: `SELECT seq, kind, text, data, tool_call_id AS "toolCallId", attachment_cids AS "attachmentCids", token_count AS "tokenCount",
                  token_total AS "tokenTotal", erased_at AS "erasedAt"
           FROM events WHERE session_id = $1 AND seq BETWEEN $2 AND $3 AND token_total > $4 ORDER BY seq`,
    values: [sessionId, range.fromSeq, range.throughSeq, afterTokens],
    result: (rows) => rows as unknown as TailEvent[],
  };
}

/** The texts of a session's last `limit` user messages before `beforeSeq`, oldest first. */
export function userMessageTextsBefore(sessionId: string, beforeSeq: number, limit: number): Read<string[]> {
  return {
    text: `SELECT text FROM events WHERE session_id = $1 AND kind = 'USER_MESSAGE' AND seq < $2 ORDER BY seq DESC LIMIT $3`,
    values: [sessionId, beforeSeq, limit],
    result: (rows) => rows.map((row) => row.text as string).reverse(),
  };
}

/** A session by id, whichever account holds it: for the runtime, which acts on the runs it claimed. */
export function sessionById(manager: EntityManager, id: string): Read<SessionEntity | null> {
  return firstOf(entitiesRead(manager, SessionEntity, 'WHERE id = $1', [id]));
}

/** An event by id, whichever account holds it. */
export function eventById(manager: EntityManager, id: string): Read<EventEntity | null> {
  return firstOf(entitiesRead(manager, EventEntity, 'WHERE id = $1', [id]));
}

/** A session's events from `fromSeq` to `toSeq`, in order. */
export function eventsBetween(manager: EntityManager, sessionId: string, fromSeq: number, toSeq: number): Read<EventEntity[]> {
  return entitiesRead(manager, EventEntity, 'WHERE session_id = $1 AND seq BETWEEN $2 AND $3 ORDER BY seq', [sessionId, fromSeq, toSeq]);
}

/** A session's events at the given positions, in order. */
export function eventsAtSeqs(manager: EntityManager, sessionId: string, seqs: number[]): Read<EventEntity[]> {
  return entitiesRead(manager, EventEntity, 'WHERE session_id = $1 AND seq = ANY($2::int[]) ORDER BY seq', [sessionId, seqs]);
}
