import { DataSource, EntityManager } from 'typeorm';
import { RunKind, RunStatus, cancelledDelegation } from '../../modules/conversation/runs';
import { SessionStatus } from '../../modules/conversation/sessions';
import { EventKind } from '../../modules/conversation/transcript';
import { EventEntity } from '../../modules/conversation/event.entity';
import { RunEntity } from '../../modules/conversation/run.entity';
import { SessionEntity } from '../../modules/conversation/session.entity';
import { Lease, LeaseLost, lockLeasedRun, lockLeasedRunStatement, settleLeasedRunStatement, settleRun, settledRunWebhooks } from '../../modules/conversation/run.repository';
import { EventDraft, appendEvents, chainEvents, lockSession, lockSessionForRun, withAppended } from '../../modules/conversation/transcript.repository';
import { messagesPosted } from '../../modules/conversation/webhook-events';
import type { ConversationNotifier } from '../../modules/conversation/notifications';
import { withWebhooks } from '../../modules/webhooks/webhook.repository';
import type { WebhookEvent } from '../../modules/webhooks/webhooks';
import { CombinedStatement } from '../../platform/db/statement';
import { entityFromRow, returnedRows } from '../../platform/db/rows';
import { Sql, inWriteTransaction } from '../../platform/db/write-transaction';

export { LeaseLost };

/** The abort reason of a run someone cancelled: its worker records what it produced and stops. */
export class RunCancelled extends Error {
  constructor() {
    super('The run was cancelled.');
  }
}

/**
 * What a run writes, each write guarded by its lease: a write after the lease is gone throws
 * {@link LeaseLost} and writes nothing. Every committed write is announced.
 */
export class RunWrites {
  constructor(
    private readonly dataSource: DataSource,
    private readonly notifier: ConversationNotifier,
  ) {}

  /**
   * The turn's answer, appended and the run settled in one transaction; a run cancelled meanwhile
   * stays CANCELLED and its answer is marked `cancelled` (nothing is appended when it produced
   * nothing). Delegated work answers in its child session and reports the answer, as the result
   * of the call that started it, to the session the run reports to now: the successor, when the
   * run was transferred.
   */
  async answer(lease: Lease, run: RunEntity, sessionId: string, text: string): Promise<void> {
    const answerDrafts = (cancelled: boolean): EventDraft[] =>
      cancelled && !text ? [] : [{ kind: EventKind.ASSISTANT_MESSAGE, text, ...(cancelled && { data: { cancelled: true } }) }];
    if (run.kind !== RunKind.DELEGATED) {
      // Settled in the lock's round trip: its update locks the run's row as the lease check would,
      // and the row it returns (a cancelled run stays CANCELLED) decides what the answer appends.
      const { events, run: settled } = await this.appendForRun(
        lease,
        sessionId,
        (manager) => settleLeasedRunStatement(manager, lease, text),
        (settled) => answerDrafts(settled.status === RunStatus.CANCELLED),
        settledRunWebhooks,
      );
      this.notifier.eventsAppended(events);
      this.notifier.runsChanged([settled]);
      return;
    }
    const events: EventEntity[] = [];
    const settled = await this.dataSource.transaction(async (manager) => {
      const child = await lockSession(manager, run.accountId, sessionId);
      return this.lockedWrite(manager, lease, (current) => current.sessionId, async (session, current) => {
        const cancelled = current.status === RunStatus.CANCELLED;
        events.push(...(await appendEvents(manager, child!, answerDrafts(cancelled))));
        const result = cancelled ? cancelledDelegation(text) : text;
        const data = { name: 'delegate', runId: current.id, childSessionId: child!.id, ...(cancelled && { cancelled: true }) };
        events.push(...(await appendEvents(manager, session, [{ kind: EventKind.TOOL_RESULT, text: result, toolCallId: current.toolCallId, data }])));
        return settleRun(manager, current, RunStatus.SUCCEEDED, null, text);
      });
    });
    this.notifier.eventsAppended(events);
    this.notifier.runsChanged([settled]);
  }

  /** The run FAILED, with `error` for a person to read. */
  fail(lease: Lease, error: string): Promise<void> {
    return this.settle(lease, RunStatus.FAILED, error);
  }

  /** The run SUCCEEDED with no answer of its own: its work went on elsewhere (a continuation, a proposal). */
  succeedElsewhere(lease: Lease): Promise<void> {
    return this.settle(lease, RunStatus.SUCCEEDED, null);
  }

  private async settle(lease: Lease, status: typeof RunStatus.SUCCEEDED | typeof RunStatus.FAILED, error: string | null): Promise<void> {
    const settled = await this.dataSource.transaction(async (manager) => {
      const current = await lockLeasedRun(manager, lease);
      if (!current) throw new LeaseLost();
      return settleRun(manager, current, status, error);
    });
    this.notifier.runsChanged([settled]);
  }

  /** Throws {@link LeaseLost} unless the run is still leased here. */
  async assertLease(lease: Lease): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      if (!(await lockLeasedRun(manager, lease))) throw new LeaseLost();
    });
  }

  /** Appends to a session for the run. */
  async record(lease: Lease, sessionId: string, drafts: EventDraft[]): Promise<void> {
    const { events } = await this.appendForRun(lease, sessionId, (manager) => lockLeasedRunStatement(manager, lease), () => drafts, () => []);
    this.notifier.eventsAppended(events);
  }

  /**
   * Appends to a session for the run in two round trips on PostgreSQL: the session's lock with
   * `runStatement`, which locks the leased run (or settles it) and returns its row, then the events
   * with the commit. Throws {@link LeaseLost} when the lease is gone, and writes nothing then or
   * when the session takes no writes.
   */
  private appendForRun(
    lease: Lease,
    sessionId: string,
    runStatement: (manager: EntityManager) => Sql,
    drafts: (run: RunEntity) => EventDraft[],
    runWebhooks: (run: RunEntity) => WebhookEvent[],
  ): Promise<{ events: EventEntity[]; run: RunEntity }> {
    return inWriteTransaction(this.dataSource, async (transaction) => {
      const manager = transaction.manager;
      const [[locked], runRows] = await transaction.begin(lockSessionForRun(manager, sessionId, lease.runId), runStatement(manager));
      const [runRow] = returnedRows(runRows);
      if (!runRow) throw new LeaseLost();
      const run = entityFromRow(manager, RunEntity, runRow);
      const session = locked ? entityFromRow(manager, SessionEntity, locked) : null;
      assertWritable(session, sessionId);
      const appended = chainEvents(session, drafts(run));
      const statement = withAppended(new CombinedStatement(manager), session.id, appended);
      const announced = locked.has_webhook_endpoint ? withWebhooks(statement, [...messagesPosted(appended.events), ...runWebhooks(run)]) : statement;
      await announced.commitIn(transaction);
      Object.assign(session, appended.totals);
      return { events: appended.events, run };
    });
  }

  /** Runs `write` in a transaction holding the session's lock and the run's lease. */
  writeForRun<T>(lease: Lease, sessionId: string, write: (manager: EntityManager, session: SessionEntity, run: RunEntity) => Promise<T>): Promise<T> {
    return this.dataSource.transaction((manager) => this.lockedWrite(manager, lease, () => sessionId, (session, run) => write(manager, session, run)));
  }

  /**
   * Locks the session the write goes to, then the leased run (sessions before runs, the order a
   * continuation takes too, so the two cannot deadlock), and checks that the session still takes
   * writes. Throws {@link LeaseLost} when the lease is gone.
   */
  private async lockedWrite<T>(
    manager: EntityManager,
    lease: Lease,
    target: (run: RunEntity) => string,
    write: (session: SessionEntity, run: RunEntity) => Promise<T>,
  ): Promise<T> {
    const peek = await manager.findOneBy(RunEntity, { id: lease.runId });
    if (!peek) throw new LeaseLost();
    const session = await lockSession(manager, peek.accountId, target(peek));
    const run = await lockLeasedRun(manager, lease);
    if (!run) throw new LeaseLost();
    assertWritable(session, target(run));
    return write(session, run);
  }
}

/** Throws unless `session`, locked for a run's write, is the one the run writes to and takes writes. */
function assertWritable(session: SessionEntity | null, target: string): asserts session is SessionEntity {
  if (!session || target !== session.id) throw new Error('The run moved to another session while it was being written.');
  if (session.erasedAt) throw new Error(`Session ${session.id} was erased and takes no more writes.`);
  if (session.status !== SessionStatus.ACTIVE) throw new Error(`Session ${session.id} is ${session.status} and takes no more writes.`);
}
