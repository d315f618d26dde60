import { DataSource } from 'typeorm';
import { accountRows } from '../../platform/db/rows';
import { ContextUsage, contextTokens } from './context-usage';
import { ErrorCode, Outcome, fail, succeed, notFound } from '../../shared/errors';
import { isId } from '../../shared/ids';
import { ACTIVE_RUN_STATUSES, RunKind, RunStatus, cancelledDelegation } from './runs';
import { EventKind } from './transcript';
import { EventEntity } from './event.entity';
import { RunEntity } from './run.entity';
import { cancelRunRow, requeueFailedRun } from './run.repository';
import { EventDraft, appendEvents, lockSession } from './transcript.repository';
import type { WritableSessions } from './writable-sessions.service';
import { SessionStatus } from './sessions';
import { alignMany, alignOne } from '../../shared/batch';
import { ConversationNotifier } from './notifications';
import { Viewer } from '../../shared/viewer';

/** Which of a session's runs a field asks for: all (`last` null) or the newest `last`, of any status (null) or one. */
export interface SessionRunsKey {
  sessionId: string;
  status: RunStatus | null;
  last: number | null;
}

export interface UsageSettings {
  windowTokens: number;
  continuationThreshold: number;
}

/** Why a finished run cannot be cancelled, by its status. */
const FINISHED_RUN = { SUCCEEDED: 'it succeeded, and its answer stands', FAILED: 'it failed', CANCELLED: 'it was cancelled already' } as const;

export class RunService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly notifier: ConversationNotifier,
    private readonly writable: WritableSessions,
    private readonly usage: UsageSettings,
  ) {}

  /**
   * Queues a FAILED run again, keeping its id, its session and everything it recorded; the next
   * attempt starts from the same message. Fails with NOT_FOUND, SESSION_CONTINUED when its session
   * was continued since (the work goes on in the continuation), or INVALID_INPUT for a run that
   * did not fail (a succeeded one has its answer; a queued or running one is still going).
   */
  async retryRun(viewer: Viewer, runId: string): Promise<Outcome<RunEntity>> {
    const path = ['runId'];
    const unknown = () => notFound<RunEntity>('run', path);
    if (!isId(runId)) return unknown();
    const outcome = await this.dataSource.transaction(async (manager): Promise<Outcome<RunEntity>> => {
      const run = await manager.findOneBy(RunEntity, { id: runId, accountId: viewer.accountId });
      if (!run) return unknown();
      // Serialized with continuations of its session, which check that no turn is queued.
      const session = await lockSession(manager, viewer.accountId, run.sessionId);
      const refusal = session && run.status === RunStatus.FAILED ? await this.writable.refusal(manager, session, path, 'carry on in its current continuation.') : null;
      if (refusal) return { ok: false, error: refusal };
      const requeued = await requeueFailedRun(manager, viewer.accountId, runId);
      if (requeued) return succeed(requeued);
      const now = (await manager.findOneBy(RunEntity, { id: runId }))!;
      const why = now.status === RunStatus.SUCCEEDED ? 'it succeeded, and its answer stands' : `it is ${now.status.toLowerCase()}`;
      return fail(ErrorCode.INVALID_INPUT, `Only a failed run can be retried: ${why}.`, [{ path, message: `Run ${now.id} is ${now.status}.` }]);
    });
    if (outcome.ok) this.notifier.runsChanged([outcome.value]);
    return outcome;
  }

  /**
   * Stops a QUEUED or RUNNING run; returns it CANCELLED. A queued run is settled at once (for
   * delegated work, the delegating session gets the call's result saying so). A running one stays
   * with its worker, which aborts the model call, records what was produced as the answer marked
   * `cancelled` and releases it; the worker sees the change at once in its own process, and within
   * a second from another. Fails with NOT_FOUND, or INVALID_INPUT for a run that already finished.
   */
  async cancelRun(viewer: Viewer, runId: string): Promise<Outcome<RunEntity>> {
    const path = ['runId'];
    const unknown = () => notFound<RunEntity>('run', path);
    if (!isId(runId)) return unknown();
    const events: EventEntity[] = [];
    const outcome = await this.dataSource.transaction(async (manager): Promise<Outcome<RunEntity>> => {
      const peek = await manager.findOneBy(RunEntity, { id: runId, accountId: viewer.accountId });
      if (!peek) return unknown();
      // The session before the run: the order every writer locks them in.
      const session = await lockSession(manager, viewer.accountId, peek.sessionId);
      const run = await manager.findOne(RunEntity, { where: { id: runId }, lock: { mode: 'pessimistic_write' } });
      if (!run) return unknown();
      if (!ACTIVE_RUN_STATUSES.includes(run.status)) {
        const why = FINISHED_RUN[run.status as keyof typeof FINISHED_RUN];
        return fail(ErrorCode.INVALID_INPUT, `Only a queued or running run can be cancelled: ${why}.`, [{ path, message: `Run ${run.id} is ${run.status}.` }]);
      }
      const cancelled = await cancelRunRow(manager, run);
      if (cancelled.leaseOwner === null && cancelled.kind === RunKind.DELEGATED && session?.status === SessionStatus.ACTIVE) {
        const data = { name: 'delegate', runId: run.id, childSessionId: run.childSessionId, cancelled: true };
        const result: EventDraft = { kind: EventKind.TOOL_RESULT, text: cancelledDelegation(''), toolCallId: run.toolCallId, data };
        events.push(...(await appendEvents(manager, session, [result])));
      }
      return succeed(cancelled);
    });
    if (outcome.ok) {
      this.notifier.eventsAppended(events);
      this.notifier.runsChanged([outcome.value]);
    }
    return outcome;
  }

  /** A run of the account as stored now (its output as far as produced), or null. */
  async findRun(viewer: Viewer, runId: string): Promise<RunEntity | null> {
    return (await this.runsByIds(viewer.accountId, [runId]))[0];
  }

  /** Runs of one account by id, aligned with `ids` (null where absent): a DataLoader batch function. */
  async runsByIds(accountId: string, ids: readonly string[]): Promise<(RunEntity | null)[]> {
    const rows = await accountRows(this.dataSource.manager, RunEntity, 'id', accountId, ids);
    return alignOne(ids, rows, (run) => run.id);
  }

  /** Each session's first turn run (a successor's initial run), aligned with `ids` (null where none): a DataLoader batch function. */
  async firstTurnRuns(accountId: string, sessionIds: readonly string[]): Promise<(RunEntity | null)[]> {
    const valid = sessionIds.filter(isId);
    const rows = valid.length
      ? await this.dataSource.manager
          .createQueryBuilder(RunEntity, 'run')
          .distinctOn(['run.session_id'])
          .where('run.session_id IN (:...valid) AND run.account_id = :accountId AND run.kind = :kind', { valid, accountId, kind: RunKind.TURN })
          .orderBy('run.session_id')
          .addOrderBy('run.created_at')
          .addOrderBy('run.id')
          .getMany()
      : [];
    return alignOne(sessionIds, rows, (run) => run.sessionId);
  }

  /** Context usage of sessions by id, aligned with `ids`, from stored running totals: a DataLoader batch function. */
  async contextUsage(accountId: string, ids: readonly string[]): Promise<(ContextUsage | null)[]> {
    const valid = ids.filter(isId);
    const rows: {
      id: string;
      kind: string;
      token_count: number;
      projected: number | null;
      opening: number | null;
      fork_point: number | null;
    }[] = valid.length
      ? await this.dataSource.query(
          `SELECT session.id, session.kind, session.token_count, manifest.token_cost AS projected,
                  opening.token_total AS opening, fork_point.token_total AS fork_point
           FROM sessions session
           LEFT JOIN continuation_edges edge ON edge.successor_id = session.id
           LEFT JOIN projection_manifests manifest ON manifest.edge_id = edge.id
           LEFT JOIN events opening ON opening.session_id = session.id AND opening.seq = 2 AND session.kind = 'CONTINUATION'
           LEFT JOIN events fork_point ON fork_point.id = session.forked_from_event_id
           WHERE session.account_id = $1 AND session.id = ANY($2::uuid[])`,
          [accountId, valid],
        )
      : [];
    const usages = rows.map((row) => ({
      id: row.id,
      usage: {
        tokens: contextTokens({
          kind: row.kind,
          tokensThrough: row.token_count,
          projectedContextTokens: row.projected,
          openingTokens: row.opening,
          forkPointTokens: row.fork_point,
        }),
        windowTokens: this.usage.windowTokens,
        threshold: this.usage.continuationThreshold,
      },
    }));
    return alignOne(ids, usages, (entry) => entry.id).map((entry) => entry?.usage ?? null);
  }

  /**
   * Runs of many sessions of one account, each session's oldest first, optionally of one status,
   * optionally only the newest `last`: a DataLoader batch function, one statement per distinct
   * status and `last` asked, however many sessions a list shows.
   */
  async runsOfSessions(accountId: string, keys: readonly SessionRunsKey[]): Promise<RunEntity[][]> {
    const groups = new Map<string, SessionRunsKey[]>();
    for (const key of keys) {
      const name = `${key.status} ${key.last}`;
      const group = groups.get(name);
      if (group) group.push(key);
      else groups.set(name, [key]);
    }
    const found = new Map<SessionRunsKey, RunEntity[]>();
    const each = 'AND ($3::text IS NULL OR status = $3::text) ORDER BY created_at DESC, id DESC LIMIT $4';
    await Promise.all(
      [...groups.values()].map(async (group) => {
        const sessionIds = group.map((key) => key.sessionId);
        const { status, last } = group[0];
        const rows = await accountRows(this.dataSource.manager, RunEntity, 'session_id', accountId, sessionIds, 'ORDER BY created_at, id', {
          text: each,
          values: [status, last],
        });
        alignMany(sessionIds, rows, (run) => run.sessionId).forEach((runs, index) => found.set(group[index], runs));
      }),
    );
    return keys.map((key) => found.get(key)!);
  }
}
