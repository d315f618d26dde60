import { DataSource, EntityManager } from 'typeorm';
import { runRead } from '../../platform/db/read-batch';
import { accountRows } from '../../platform/db/rows';
import { ErrorCode, Outcome, fail, succeed, notFound } from '../../shared/errors';
import { EventPageArgs, EventWindow, eventWindow } from './event-window';
import { isId } from '../../shared/ids';
import { MAX_PAGE_SIZE } from '../../shared/pagination';
import { SessionStatus, erasedSessionFailure } from './sessions';
import { EventKind, validateUserMessage } from './transcript';
import { validateAttachmentCids } from '../attachments/attachments';
import { findAttachments } from '../attachments/attachment.repository';
import { EventEntity } from './event.entity';
import { SessionEntity } from './session.entity';
import { RunEntity } from './run.entity';
import type { WritableSessions } from './writable-sessions.service';
import { chainEvents, eventsBetween, lockForMessage, withAppended } from './transcript.repository';
import { CombinedStatement } from '../../platform/db/statement';
import { inWriteTransaction } from '../../platform/db/write-transaction';
import { HistoryReads, primaryReads } from '../../platform/db/history-reads';
import { queuedRun } from './run.repository';
import { withWebhooks } from '../webhooks/webhook.repository';
import { messagesPosted } from './webhook-events';
import { RunKind } from './runs';
import { ConversationNotifier } from './notifications';
import { alignOne } from '../../shared/batch';
import { Viewer } from '../../shared/viewer';

/** The most events one `eventRange` call returns; longer ranges are read page by page. */
export const EVENT_RANGE_MAX_EVENTS = 1_000;

export interface PostMessageInput {
  sessionId: string;
  text: string;
  clientMessageId?: string | null;
  branch?: boolean | null;
  /** Cids of the viewer's attachments the message links, in order. */
  attachments?: string[] | null;
}

export interface PostedMessage {
  event: EventEntity;
  /** The session that received the message: a new continuation branch when `branch` was used. */
  session: SessionEntity;
  /** The run started for the message, if any. */
  run: RunEntity | null;
}

/** Starts a branch from a continued session; the continuation service does. */
export interface BranchStarter {
  branchWithMessage(
    viewer: Viewer,
    predecessor: SessionEntity,
    message: { text: string; clientMessageId: string | null; attachmentCids: string[] },
  ): Promise<Outcome<{ successor: SessionEntity; run: RunEntity; message: EventEntity }>>;
}

export interface EventPage {
  events: EventEntity[];
  window: EventWindow;
}

export class TranscriptService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly notifier: ConversationNotifier,
    private readonly branches: BranchStarter,
    private readonly writable: WritableSessions,
    /** Whether an agent answers: each new user message then queues a turn run. */
    private readonly startsTurns: boolean,
    /** Where transcript pages are read: a replica once it has the account's writes. */
    private readonly history: HistoryReads = primaryReads(dataSource),
  ) {}

  /**
   * Appends a USER_MESSAGE. Replaying a `clientMessageId` returns the event stored the first time
   * and appends nothing. A continued session takes no message: SESSION_CONTINUED, unless `branch`
   * asks for a new continuation to receive it. Attachments are linked by cid, in order: each must
   * be one the viewer uploaded. Fails with INVALID_INPUT or NOT_FOUND.
   */
  async postMessage(viewer: Viewer, input: PostMessageInput): Promise<Outcome<PostedMessage>> {
    const attachmentCids = input.attachments ?? [];
    const details = [...validateUserMessage(input, ['input']), ...validateAttachmentCids(attachmentCids, ['input', 'attachments'])];
    if (details.length > 0) return fail(ErrorCode.INVALID_INPUT, details[0].message, details);
    if (!isId(input.sessionId)) return sessionNotFound();
    // Attachments are never deleted: what exists now still exists when the message is written.
    const held = new Set((await findAttachments(this.dataSource.manager, viewer.accountId, attachmentCids)).map((attachment) => attachment.cid));
    const unknown = attachmentCids.flatMap((cid, index) =>
      held.has(cid) ? [] : [{ path: ['input', 'attachments', String(index)], message: 'No such attachment in this account: upload it first (POST /attachments).' }],
    );
    if (unknown.length > 0) return fail(ErrorCode.NOT_FOUND, unknown[0].message, unknown);

    type Appended = PostedMessage & { replayed: boolean };
    // Two round trips on PostgreSQL: the lock with the replay check, then the writes with the commit.
    const outcome = await inWriteTransaction(this.dataSource, async (transaction): Promise<Outcome<Appended> | SessionEntity> => {
      const { session, earlier, earlierRun, hasWebhookEndpoint } = await lockForMessage(transaction, viewer.accountId, input.sessionId, input.clientMessageId ?? null);
      if (!session) return sessionNotFound();
      if (earlier) return succeed({ event: earlier, session, run: earlierRun, replayed: true });
      if (session.erasedAt) return { ok: false, error: erasedSessionFailure(['input', 'sessionId']) };
      // A continued session is read-only; branching happens outside this transaction.
      if (session.status === SessionStatus.CONTINUED) return session;
      if (session.status !== SessionStatus.ACTIVE) {
        return fail(ErrorCode.INVALID_INPUT, `Session is ${session.status.toLowerCase()} and takes no new messages.`, [
          { path: ['input', 'sessionId'], message: `Session is ${session.status}.` },
        ]);
      }
      const appended = chainEvents(session, [{ kind: EventKind.USER_MESSAGE, text: input.text, clientMessageId: input.clientMessageId, attachmentCids }]);
      const [event] = appended.events;
      const run = this.startsTurns
        ? queuedRun({ accountId: session.accountId, sessionId: session.id, kind: RunKind.TURN, triggerEventId: event.id }, event.createdAt)
        : null;
      const statement = withAppended(new CombinedStatement(transaction.manager), session.id, appended).insert(RunEntity, run ? [run] : []);
      await (hasWebhookEndpoint ? withWebhooks(statement, messagesPosted([event])) : statement).commitIn(transaction);
      Object.assign(session, appended.totals);
      return succeed({ event, session, run, replayed: false });
    });
    if (outcome instanceof SessionEntity) return this.writeToContinued(viewer, outcome, input);
    if (!outcome.ok) return outcome;
    if (!outcome.value.replayed) {
      this.notifier.eventsAppended([outcome.value.event]);
      if (outcome.value.run) this.notifier.runsChanged([outcome.value.run]);
    }
    const { event, session, run } = outcome.value;
    return succeed({ event, session, run });
  }

  /** SESSION_CONTINUED, naming where the conversation went; with `branch`, a new continuation takes the message. */
  private async writeToContinued(viewer: Viewer, session: SessionEntity, input: PostMessageInput): Promise<Outcome<PostedMessage>> {
    if (!input.branch) {
      const refusal = await this.writable.refusal(this.dataSource.manager, session, ['input', 'sessionId'], 'open its current continuation, or post with branch: true to start a new branch.');
      if (refusal) return { ok: false, error: refusal };
    }
    const branched = await this.branches.branchWithMessage(viewer, session, {
      text: input.text,
      clientMessageId: input.clientMessageId ?? null,
      attachmentCids: input.attachments ?? [],
    });
    if (!branched.ok) return branched;
    return succeed({ event: branched.value.message, session: branched.value.successor, run: branched.value.run });
  }

  /** One page of a session's transcript, oldest first. Fails with INVALID_INPUT for bad page arguments. */
  async eventsPage(session: SessionEntity, args: EventPageArgs): Promise<Outcome<EventPage>> {
    const window = eventWindow(args, session.eventCount);
    if (!window.ok) return window;
    const { fromSeq, toSeq } = window.value;
    const events = toSeq < fromSeq ? [] : await this.completeRange(session.accountId, session.id, fromSeq, toSeq);
    return succeed({ events, window: window.value });
  }

  /**
   * Events `fromSeq` to `toSeq` of a session, from the replica when it has the account's writes. A
   * replica behind another client's latest writes may hold fewer than the primary counted: then the
   * primary answers, so that a page is never short.
   */
  private completeRange(accountId: string, sessionId: string, fromSeq: number, toSeq: number): Promise<EventEntity[]> {
    const range = (manager: EntityManager) => runRead(manager, eventsBetween(manager, sessionId, fromSeq, toSeq));
    return this.history.read(accountId, async (manager, onReplica) => {
      const events = await range(manager);
      return onReplica && events.length < toSeq - fromSeq + 1 ? range(this.dataSource.manager) : events;
    });
  }

  /** The viewer's event, or null when it does not exist in the viewer's account. */
  async findEvent(viewer: Viewer, id: string): Promise<EventEntity | null> {
    return (await this.eventsByIds(viewer.accountId, [id]))[0];
  }

  /**
   * A session's events in seq order without gaps or repeats: those after `afterSeq` from the
   * database, then `live` ones as they arrive. `live` must already be subscribed. A live event
   * that arrives ahead of its predecessors (publishes may overtake each other) is preceded by the
   * missing ones, read from the database. Without `afterSeq`, starts after the current last event.
   */
  followSession(session: SessionEntity, afterSeq: number | null, live: AsyncIterator<EventEntity>): AsyncIterableIterator<EventEntity> {
    const events = this.followedEvents(session, afterSeq, live);
    const followed: AsyncIterableIterator<EventEntity> = {
      [Symbol.asyncIterator]: () => followed,
      next: () => events.next(),
      // A generator waiting for the next live event would take `return` only once one came (on a
      // quiet session: never, keeping its listener): ending `live` first ends that wait.
      return: async () => {
        await live.return?.();
        return events.return(undefined);
      },
      throw: async (error: unknown) => {
        await live.return?.();
        return events.throw(error);
      },
    };
    return followed;
  }

  private async *followedEvents(session: SessionEntity, afterSeq: number | null, live: AsyncIterator<EventEntity>): AsyncGenerator<EventEntity> {
    const pendingLive = live.next();
    try {
      const { eventCount } = await this.dataSource.manager.findOneByOrFail(SessionEntity, { id: session.id });
      let lastSeq = afterSeq ?? eventCount;
      for await (const event of this.eventsAfter(session.id, lastSeq, eventCount)) {
        lastSeq = event.seq;
        yield event;
      }
      for (let next = await pendingLive; !next.done; next = await live.next()) {
        const event = next.value;
        if (event.seq <= lastSeq) continue;
        for await (const missed of this.eventsAfter(session.id, lastSeq, event.seq - 1)) yield missed;
        lastSeq = event.seq;
        yield event;
      }
    } finally {
      await live.return?.();
    }
  }

  /** Events with `afterSeq < seq <= untilSeq`, read a page at a time. */
  private async *eventsAfter(sessionId: string, afterSeq: number, untilSeq: number): AsyncGenerator<EventEntity> {
    for (let from = afterSeq + 1; from <= untilSeq; from += MAX_PAGE_SIZE) {
      const manager = this.dataSource.manager;
      yield* await runRead(manager, eventsBetween(manager, sessionId, from, Math.min(untilSeq, from + MAX_PAGE_SIZE - 1)));
    }
  }

  /** Events of one account by id, aligned with `ids` (null where absent): a DataLoader batch function. */
  async eventsByIds(accountId: string, ids: readonly string[]): Promise<(EventEntity | null)[]> {
    const rows = await accountRows(this.dataSource.manager, EventEntity, 'id', accountId, ids);
    return alignOne(ids, rows, (event) => event.id);
  }

  /**
   * Exact recall: the events from `fromEventId` to `toEventId` inclusive, both of session `sessionId`.
   * Fails with NOT_FOUND for an unknown session or event, INVALID_INPUT for a reversed or too long range.
   */
  async eventRange(
    viewer: Viewer,
    sessionId: string,
    fromEventId: string,
    toEventId: string,
  ): Promise<Outcome<EventEntity[]>> {
    const [from, to] = await Promise.all([this.findEvent(viewer, fromEventId), this.findEvent(viewer, toEventId)]);
    const missing = [
      ...(from && from.sessionId === sessionId ? [] : [{ path: ['fromEventId'], message: 'No such event in this session.' }]),
      ...(to && to.sessionId === sessionId ? [] : [{ path: ['toEventId'], message: 'No such event in this session.' }]),
    ];
    if (missing.length > 0 || !from || !to) {
      return fail(ErrorCode.NOT_FOUND, 'The range must name two events of the given session.', missing);
    }
    if (from.seq > to.seq) {
      return fail(ErrorCode.INVALID_INPUT, 'fromEventId must not come after toEventId.', [
        { path: ['fromEventId'], message: `Event ${from.seq} comes after event ${to.seq}.` },
      ]);
    }
    if (to.seq - from.seq + 1 > EVENT_RANGE_MAX_EVENTS) {
      return fail(ErrorCode.INVALID_INPUT, `A range holds at most ${EVENT_RANGE_MAX_EVENTS} events; read longer ones in parts.`, [
        { path: ['toEventId'], message: `The range holds ${to.seq - from.seq + 1} events.` },
      ]);
    }
    return succeed(await this.completeRange(viewer.accountId, sessionId, from.seq, to.seq));
  }
}

function sessionNotFound<T>(): Outcome<T> {
  return notFound('session', ['input', 'sessionId']);
}
