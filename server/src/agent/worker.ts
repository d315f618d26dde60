import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { DataSource } from 'typeorm';
import { RunEntity } from '../modules/conversation/run.entity';
import { Lease, claimRun, releaseRun, renewLease, settleRun, lockLeasedRun } from '../modules/conversation/run.repository';
import { RunStatus } from '../modules/conversation/runs';
import { ConversationNotifier } from '../modules/conversation/notifications';
import { LeaseLost, RunCancelled } from './turn/run-writes';
import type { TurnRunner } from './turn/turn-runner';
import type { NextTurn } from './turn/turn-context';
import { logger } from '../platform/observability/logger';

/** How often a running run's lease is renewed at most, which is also how soon a cancellation elsewhere is seen. */
const CANCELLATION_CHECK_MS = 1_000;

export interface WorkerSettings {
  /** Runs this process executes at once. */
  concurrency: number;
  /** How long a claimed run stays this worker's without a heartbeat. */
  leaseMs: number;
  /** How often idle slots look for work that other processes queued. */
  pollMs: number;
}

/**
 * Claims runs from the database and executes them. Any number of processes may run a worker on
 * one database: a claim takes a row no one else holds (SKIP LOCKED) under a lease that a heartbeat
 * renews, so a run is never executed twice at once, and a run whose process died is claimed again
 * once its lease expires. Every write checks the lease, so a worker that lost its run writes nothing.
 */
export class AgentWorker {
  readonly id = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private stopping = false;
  private readonly slots: Promise<void>[] = [];
  private readonly inFlight = new Map<string, { lease: Lease; abort: AbortController }>();
  private readonly waiters = new Set<() => void>();
  /** Counts wake-ups, so that one arriving while a slot is between looking and waiting is not lost. */
  private wakes = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly notifier: ConversationNotifier,
    private readonly runner: TurnRunner,
    private readonly settings: WorkerSettings,
  ) {}

  start(): void {
    for (let slot = 0; slot < this.settings.concurrency; slot += 1) this.slots.push(this.loop());
  }

  /** New work was queued in this process: look now rather than at the next poll. */
  wake(): void {
    this.wakes += 1;
    for (const waiter of [...this.waiters]) waiter();
  }

  /**
   * Runs changed in this process: a cancelled one in flight here stops now, and queued ones are
   * looked at. Other changes (a run claimed, settled, or written leased to a slot) leave nothing
   * to claim, so idle slots sleep on rather than race for it.
   */
  runsChanged(runs: RunEntity[]): void {
    for (const run of runs) {
      if (run.status === RunStatus.CANCELLED) this.inFlight.get(run.id)?.abort.abort(new RunCancelled());
    }
    if (runs.some((run) => run.status === RunStatus.QUEUED)) this.wake();
  }

  /**
   * Claims and executes one run, if any can be claimed; true when one was executed. The loop uses
   * it, and so can a caller that wants to step the queue itself.
   */
  async runNext(): Promise<boolean> {
    // One statement, atomic on its own: a transaction around it would cost two round trips more.
    const claimed = await claimRun(this.dataSource.manager, this.id, this.settings.leaseMs);
    if (!claimed) return false;
    this.notifier.runsChanged([claimed]);
    await this.execute(claimed);
    return true;
  }

  /** Stops claiming, aborts what is in flight and gives those runs back to the queue. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake();
    for (const { abort } of this.inFlight.values()) abort.abort();
    await Promise.all(this.slots);
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      let worked = false;
      const wakesSeen = this.wakes;
      try {
        worked = await this.runNext();
      } catch (error) {
        if (!this.stopping) logger.error({ err: error }, 'Agent worker: claiming a run failed');
      }
      if (!worked && !this.stopping && this.wakes === wakesSeen) await this.idle();
    }
  }

  private idle(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, this.settings.pollMs);
      this.waiters.add(done);
    });
  }

  /**
   * Executes `run`, then, in the same slot, the successor's run when the turn continued at the
   * threshold: the continuation wrote it leased to this worker, so it never waits in the queue.
   */
  private async execute(claimed: RunEntity): Promise<void> {
    let next: NextTurn | null = null;
    let run: RunEntity | null = claimed;
    while (run) {
      next = await this.executeOne(run, next ?? undefined);
      run = next?.run ?? null;
      if (run && this.stopping) {
        next!.headStart?.cancel();
        const lease = { runId: run.id, owner: this.id, attempt: run.attempt };
        const released = await this.dataSource.transaction((manager) => releaseRun(manager, lease)).catch(() => null);
        if (released) this.notifier.runsChanged([released]);
        return;
      }
    }
  }

  private async executeOne(run: RunEntity, begun: Pick<NextTurn, 'known' | 'headStart'> | undefined): Promise<NextTurn | null> {
    const lease: Lease = { runId: run.id, owner: this.id, attempt: run.attempt };
    const abort = new AbortController();
    this.inFlight.set(run.id, { lease, abort });
    // The heartbeat also finds a cancellation made by another process, within a second.
    const heartbeat = setInterval(() => {
      renewLease(this.dataSource.manager, lease, this.settings.leaseMs)
        .then((status) => {
          if (status === RunStatus.CANCELLED) abort.abort(new RunCancelled());
          else if (status === null) abort.abort(new LeaseLost());
        })
        .catch(() => undefined);
    }, Math.max(50, Math.min(CANCELLATION_CHECK_MS, Math.floor(this.settings.leaseMs / 3))));
    try {
      return await this.runner.execute(run, lease, abort.signal, { known: begun?.known, headStart: begun?.headStart, leaseMs: this.settings.leaseMs });
    } catch (error) {
      const leaseLost = error instanceof LeaseLost || abort.signal.reason instanceof LeaseLost;
      if (!leaseLost) await this.afterFailure(run, lease, error);
      return null;
    } finally {
      clearInterval(heartbeat);
      this.inFlight.delete(run.id);
    }
  }

  private async afterFailure(run: RunEntity, lease: Lease, error: unknown): Promise<void> {
    if (this.stopping) {
      const released = await this.dataSource.transaction((manager) => releaseRun(manager, lease)).catch(() => null);
      if (released) this.notifier.runsChanged([released]);
      return;
    }
    // Unexpected: logged in full here, shown on the run in a line.
    logger.error({ err: error, runId: run.id }, 'Agent worker: a run failed');
    const message = `The run failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`;
    const settled = await this.dataSource
      .transaction(async (manager) => {
        const current = await lockLeasedRun(manager, lease);
        return current ? settleRun(manager, current, RunStatus.FAILED, message) : null;
      })
      .catch(() => null);
    if (settled) this.notifier.runsChanged([settled]);
  }
}
