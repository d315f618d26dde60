import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { EventKind, eventHash, eventTokenCount, payloadJson } from '../../domain/transcript';
import { EventEntity } from '../entities/event.entity';
import { SessionEntity } from '../entities/session.entity';
import { preparedQuery } from '../prepared';
import { columnList, entityFromRow } from '../rows';

/** What a caller supplies to append one event; seq, hash, token count and time are assigned here. */
export interface EventDraft {
  kind: EventKind;
  text: string | null;
  data?: object | null;
  toolCallId?: string | null;
  replayOfId?: string | null;
  clientMessageId?: string | null;
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

/** The events that drafts become after `session`'s last event, and the session's totals after them. */
export function chainEvents(session: SessionEntity, drafts: EventDraft[]) {
  const events: EventEntity[] = [];
  let previousHash = session.lastEventHash;
  let seq = session.eventCount;
  let tokens = session.tokenCount;
  for (const draft of drafts) {
    seq += 1;
    const payload = payloadJson(draft.data);
    const event = Object.assign(new EventEntity(), {
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
  const { events, totals } = chainEvents(session, drafts);
  await manager.insert(EventEntity, events);
  await manager.update(SessionEntity, { id: session.id }, { ...totals, ...changes });
  Object.assign(session, totals, changes);
  return events;
}
