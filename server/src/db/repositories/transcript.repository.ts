import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { EventKind, GENESIS_HASH, eventHash, eventTokenCount } from '../../domain/transcript';
import { EventEntity } from '../entities/event.entity';
import { RunEntity } from '../entities/run.entity';
import { SessionEntity } from '../entities/session.entity';
import { entityFromRow } from '../rows';

/** What a caller supplies to append one event; seq, hash, token count and time are assigned here. */
export interface EventDraft {
  kind: EventKind;
  text: string | null;
  data?: object | null;
  toolCallId?: string | null;
  replayOfId?: string | null;
  clientMessageId?: string | null;
}

/**
 * Locks the account's session row for the rest of the transaction, or returns null when there is
 * no such session in the account. Appends to one session are serialized by this lock, which is
 * what keeps `seq` gap-free and the hash chain linear under concurrent writers.
 */
export function lockSession(manager: EntityManager, accountId: string, sessionId: string): Promise<SessionEntity | null> {
  return manager
    .createQueryBuilder(SessionEntity, 'session')
    .setLock('pessimistic_write')
    .where('session.id = :sessionId AND session.accountId = :accountId', { sessionId, accountId })
    .getOne();
}

/** The events that drafts become after `session`'s last event, and the session's totals after them. */
function chainEvents(manager: EntityManager, session: SessionEntity, drafts: EventDraft[]) {
  const events: EventEntity[] = [];
  let previousHash = session.lastEventHash;
  let seq = session.eventCount;
  let tokens = session.tokenCount;
  for (const draft of drafts) {
    seq += 1;
    const event = manager.create(EventEntity, {
      id: randomUUID(),
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
      tokenCount: eventTokenCount(draft.text, draft.data),
    });
    event.hash = eventHash(previousHash, event);
    previousHash = event.hash;
    tokens += event.tokenCount;
    event.tokenTotal = tokens;
    events.push(event);
  }
  return { events, totals: { eventCount: seq, tokenCount: tokens, lastEventHash: previousHash } };
}

/**
 * Appends events to a session locked with {@link lockSession} in the same transaction, and
 * advances the session's running totals, applying `changes` to the session in the same update.
 * Returns the stored events in order.
 */
export async function appendEvents(
  manager: EntityManager,
  session: SessionEntity,
  drafts: EventDraft[],
  changes: Pick<Partial<SessionEntity>, 'status'> = {},
): Promise<EventEntity[]> {
  const { events, totals } = chainEvents(manager, session, drafts);
  await manager.insert(EventEntity, events);
  await manager.update(SessionEntity, { id: session.id }, { ...totals, ...changes });
  Object.assign(session, totals, changes);
  return events;
}

/** Inserts a new session together with its first events: two statements, nobody else can see it yet. */
export async function insertSessionWithEvents(
  manager: EntityManager,
  session: SessionEntity,
  drafts: EventDraft[],
): Promise<EventEntity[]> {
  Object.assign(session, { eventCount: 0, tokenCount: 0, lastEventHash: GENESIS_HASH });
  const { events, totals } = chainEvents(manager, session, drafts);
  Object.assign(session, totals);
  await manager.insert(SessionEntity, session);
  await manager.insert(EventEntity, events);
  return events;
}

/** What decides whether a session is at a turn boundary, read in one round trip. */
export interface TurnState {
  latestUserMessage: EventEntity | null;
  /** Queued or running runs reporting to the session, oldest first. */
  activeRuns: RunEntity[];
  /** A tool call of the session that has no result yet. */
  unresolvedToolCallId: string | null;
}

export async function turnState(manager: EntityManager, sessionId: string): Promise<TurnState> {
  const [row] = await manager.query(
    `SELECT
       (SELECT row_to_json(message) FROM events message
        WHERE message.session_id = $1 AND message.kind = 'USER_MESSAGE' ORDER BY message.seq DESC LIMIT 1) AS latest_user_message,
       (SELECT coalesce(json_agg(run ORDER BY run.created_at, run.id), '[]'::json) FROM runs run
        WHERE run.session_id = $1 AND run.status IN ('QUEUED', 'RUNNING')) AS active_runs,
       (SELECT call.tool_call_id FROM events call
        WHERE call.session_id = $1 AND call.kind = 'TOOL_CALL'
          AND NOT EXISTS (SELECT 1 FROM events result
                          WHERE result.session_id = call.session_id AND result.kind = 'TOOL_RESULT'
                            AND result.tool_call_id = call.tool_call_id)
        LIMIT 1) AS unresolved_tool_call_id`,
    [sessionId],
  );
  return {
    latestUserMessage: row.latest_user_message ? entityFromRow(manager, EventEntity, row.latest_user_message) : null,
    activeRuns: (row.active_runs as Record<string, unknown>[]).map((run) => entityFromRow(manager, RunEntity, run)),
    unresolvedToolCallId: row.unresolved_tool_call_id,
  };
}
