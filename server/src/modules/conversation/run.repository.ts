import { EntityManager } from 'typeorm';
import { ACTIVE_RUN_STATUSES, RunKind, RunStatus } from './runs';
import { RunEntity } from './run.entity';
import { columnList, entitiesRead, entityFromRow, returnedRows, textPerDataSource } from '../../platform/db/rows';
import type { Read } from '../../platform/db/read-batch';
import { enqueueWebhooks } from '../webhooks/webhook.repository';
import type { WebhookEvent } from '../webhooks/webhooks';
import { runEnded } from './webhook-events';
import { newRowId } from '../../shared/ids';

export interface NewRun {
  accountId: string;
  sessionId: string;
  kind: RunKind;
  triggerEventId: string | null;
  childSessionId?: string | null;
  toolCallId?: string | null;
}

/** A QUEUED run with every column set, ready to insert. */
export function queuedRun(run: NewRun, now: Date): RunEntity {
  return Object.assign(new RunEntity(), {
    id: newRowId(),
    accountId: run.accountId,
    sessionId: run.sessionId,
    kind: run.kind,
    status: RunStatus.QUEUED,
    childSessionId: run.childSessionId ?? null,
    toolCallId: run.toolCallId ?? null,
    error: null,
    output: null,
    triggerEventId: run.triggerEventId,
    attempt: 0,
    leaseOwner: null,
    leaseExpiresAt: null,
    startedAt: null,
    finishedAt: null,
    createdAt: now,
    updatedAt: now,
  });
}

/** The run's lease is gone (expired and taken over, or the run was settled elsewhere): stop without writing. */
export class LeaseLost extends Error {
  constructor() {
    super('The run is no longer leased to this worker.');
  }
}

/** Who holds a run: a worker's lease counts only for the attempt it claimed. */
export interface Lease {
  runId: string;
  owner: string;
  attempt: number;
}

/**
 * Takes the oldest run that is QUEUED, or RUNNING under an expired lease (its worker died), and
 * leases it to `owner` for `leaseMs`. SKIP LOCKED lets concurrent claimers pass over each other's
 * rows instead of waiting. A turn waits while another turn of its session holds a live lease, so
 * a session's turns run one at a time; a cancelled turn still leased is busy until its worker has
 * recorded what it produced. A turn also waits while an earlier turn of its session is still to be
 * taken: a claimer that skipped that turn because another is taking it right now still sees it
 * queued, and must not start the next turn beside it.
 */
export async function claimRun(manager: EntityManager, owner: string, leaseMs: number): Promise<RunEntity | null> {
  const rows = returnedRows(
    await manager.query(
      `UPDATE runs SET status = 'RUNNING', attempt = attempt + 1, lease_owner = $1,
              lease_expires_at = now() + $2 * interval '1 millisecond', started_at = coalesce(started_at, now()),
              error = NULL, output = NULL, updated_at = now()
       WHERE id = (
         SELECT candidate.id FROM runs candidate
         WHERE (candidate.status = 'QUEUED' OR (candidate.status = 'RUNNING' AND candidate.lease_expires_at < now()))
           AND NOT EXISTS (
             SELECT 1 FROM runs busy
             WHERE busy.session_id = candidate.session_id AND busy.kind = 'TURN' AND candidate.kind = 'TURN'
               AND busy.id <> candidate.id
               AND (busy.status IN ('RUNNING', 'CANCELLED') AND busy.lease_expires_at >= now()
                    OR busy.status IN ('QUEUED', 'RUNNING') AND (busy.created_at, busy.id) < (candidate.created_at, candidate.id)))
         ORDER BY candidate.created_at, candidate.id
         LIMIT 1
         FOR UPDATE SKIP LOCKED)
       RETURNING *`,
      [owner, leaseMs],
    ),
  );
  return rows.length ? entityFromRow(manager, RunEntity, rows[0]) : null;
}

/**
 * Extends a live lease. Returns the run's status (RUNNING, or CANCELLED when someone cancelled it
 * and the worker is to record what it produced), or null when the run is no longer this lease's.
 */
export async function renewLease(manager: EntityManager, lease: Lease, leaseMs: number): Promise<RunStatus | null> {
  const rows = returnedRows(
    await manager.query(
      `UPDATE runs SET lease_expires_at = now() + $4 * interval '1 millisecond'
       WHERE id = $1 AND lease_owner = $2 AND attempt = $3 AND status IN ('RUNNING', 'CANCELLED')
       RETURNING status`,
      [lease.runId, lease.owner, lease.attempt, leaseMs],
    ),
  );
  return rows.length === 1 ? (rows[0].status as RunStatus) : null;
}

/**
 * Locks the leased run for the rest of the transaction, or null when the lease is lost: every
 * write a worker makes for a run goes through this, so a worker that lost its run writes nothing.
 * A cancelled run stays its worker's until the worker has recorded what it produced.
 */
export async function lockLeasedRun(manager: EntityManager, lease: Lease): Promise<RunEntity | null> {
  const { text, values } = lockLeasedRunStatement(manager, lease);
  const rows: Record<string, unknown>[] = await manager.query(text, values);
  return rows.length ? entityFromRow(manager, RunEntity, rows[0]) : null;
}

/** The statement of {@link lockLeasedRun}, for a caller that sends it with others: the run's row, or none. */
export function lockLeasedRunStatement(manager: EntityManager, lease: Lease): { text: string; values: unknown[] } {
  return { text: leasedRunLockText(manager), values: [lease.runId, lease.owner, lease.attempt] };
}

const leasedRunLockText = textPerDataSource(
  (manager) => `SELECT ${columnList(manager, RunEntity)} FROM runs WHERE id = $1 AND lease_owner = $2 AND attempt = $3 AND status IN ('RUNNING', 'CANCELLED') FOR UPDATE`,
);

/**
 * Settles a leased run (locked with {@link lockLeasedRun}) and releases its lease. A cancelled run
 * stays CANCELLED whatever the worker reached (its end was announced when it was cancelled).
 * `output` is the whole answer, when there is one.
 */
export async function settleRun(
  manager: EntityManager,
  run: RunEntity,
  status: typeof RunStatus.SUCCEEDED | typeof RunStatus.FAILED | typeof RunStatus.CANCELLED,
  error: string | null,
  output?: string,
): Promise<RunEntity> {
  const rows = returnedRows(
    await manager.query(
      `UPDATE runs SET status = CASE WHEN status = 'CANCELLED' THEN status ELSE $2 END,
              error = CASE WHEN status = 'CANCELLED' THEN NULL ELSE $3 END,
              output = coalesce($4, output), lease_owner = NULL, lease_expires_at = NULL,
              finished_at = coalesce(finished_at, now()), updated_at = now()
       WHERE id = $1 RETURNING *`,
      [run.id, status, error, output ?? null],
    ),
  );
  const settled = entityFromRow(manager, RunEntity, rows[0]);
  if (run.status !== RunStatus.CANCELLED) await enqueueWebhooks(manager, runEnded(settled));
  return settled;
}

/**
 * {@link settleRun} SUCCEEDED for a run still under `lease`, in one statement that also checks the
 * lease; null when the lease is gone. A cancelled run stays CANCELLED.
 */
export async function settleLeasedRun(manager: EntityManager, lease: Lease): Promise<RunEntity | null> {
  const { text, values } = settleLeasedRunStatement(manager, lease);
  const settled = settledRun(manager, await manager.query(text, values));
  if (settled) await enqueueWebhooks(manager, settledRunWebhooks(settled));
  return settled;
}

/**
 * The statement of {@link settleLeasedRun}, for a caller that sends it with others; its webhooks are
 * {@link settledRunWebhooks}. With `output`, the whole answer, which the run's output becomes.
 */
export function settleLeasedRunStatement(manager: EntityManager, lease: Lease, output: string | null = null): { text: string; values: unknown[] } {
  return { text: leasedRunSettleText(manager), values: [lease.runId, lease.owner, lease.attempt, output] };
}

// The columns named, not `*`: write transactions keep the statement prepared (see `preparedQuery`).
const leasedRunSettleText = textPerDataSource(
  (manager) => `UPDATE runs SET status = CASE WHEN status = 'CANCELLED' THEN status ELSE 'SUCCEEDED' END, error = NULL, output = coalesce($4, output),
                  lease_owner = NULL, lease_expires_at = NULL, finished_at = coalesce(finished_at, now()), updated_at = now()
           WHERE id = $1 AND lease_owner = $2 AND attempt = $3 AND status IN ('RUNNING', 'CANCELLED') RETURNING ${columnList(manager, RunEntity)}`,
);

/** The run {@link settleLeasedRunStatement} settled, from what it returned; null when the lease was gone. */
export function settledRun(manager: EntityManager, result: unknown): RunEntity | null {
  const rows = returnedRows(result);
  return rows.length ? entityFromRow(manager, RunEntity, rows[0]) : null;
}

/** A settled run's announcement: a cancelled run's end was announced when it was cancelled. */
export function settledRunWebhooks(settled: RunEntity): WebhookEvent[] {
  return settled.status === RunStatus.CANCELLED ? [] : runEnded(settled);
}

/** Appends a batch of the answer to a leased run's output; false when the lease is lost. */
export async function appendRunOutput(manager: EntityManager, lease: Lease, text: string): Promise<boolean> {
  const rows = returnedRows(
    await manager.query(
      `UPDATE runs SET output = coalesce(output, '') || $4
       WHERE id = $1 AND lease_owner = $2 AND attempt = $3 AND status IN ('RUNNING', 'CANCELLED') RETURNING id`,
      [lease.runId, lease.owner, lease.attempt, text],
    ),
  );
  return rows.length === 1;
}

/**
 * Cancels a run of the account (locked by the caller). A queued run, or a running one whose worker
 * is gone (its lease expired), is settled at once; a running one stays leased to its worker, which
 * stops its model call and records what it produced.
 */
export async function cancelRunRow(manager: EntityManager, run: RunEntity): Promise<RunEntity> {
  const rows = returnedRows(
    await manager.query(
      `UPDATE runs SET status = 'CANCELLED', finished_at = now(), updated_at = now(),
              lease_owner = CASE WHEN status = 'RUNNING' AND lease_expires_at >= now() THEN lease_owner END,
              lease_expires_at = CASE WHEN status = 'RUNNING' AND lease_expires_at >= now() THEN lease_expires_at END
       WHERE id = $1 RETURNING *`,
      [run.id],
    ),
  );
  const cancelled = entityFromRow(manager, RunEntity, rows[0]);
  await enqueueWebhooks(manager, runEnded(cancelled));
  return cancelled;
}

/** Gives a leased run back to the queue (its worker is stopping), so another worker takes it at once. */
export async function releaseRun(manager: EntityManager, lease: Lease): Promise<RunEntity | null> {
  const rows = returnedRows(
    await manager.query(
      `UPDATE runs SET status = 'QUEUED', lease_owner = NULL, lease_expires_at = NULL, updated_at = now()
       WHERE id = $1 AND lease_owner = $2 AND attempt = $3 AND status = 'RUNNING' RETURNING *`,
      [lease.runId, lease.owner, lease.attempt],
    ),
  );
  return rows.length ? entityFromRow(manager, RunEntity, rows[0]) : null;
}

/** Puts a FAILED run of the account back in the queue under the same id; null when there is no such failed run. */
export async function requeueFailedRun(manager: EntityManager, accountId: string, runId: string): Promise<RunEntity | null> {
  // The session row gets a new version: a continuation that waited for the session reads again and sees the run.
  const rows: Record<string, unknown>[] = await manager.query(
    `WITH requeued AS (
       UPDATE runs SET status = 'QUEUED', error = NULL, lease_owner = NULL, lease_expires_at = NULL, finished_at = NULL, updated_at = now()
       WHERE id = $1 AND account_id = $2 AND status = 'FAILED' RETURNING *
     ), touched AS (
       UPDATE sessions SET status = sessions.status FROM requeued WHERE sessions.id = requeued.session_id
     )
     SELECT * FROM requeued`,
    [runId, accountId],
  );
  return rows.length ? entityFromRow(manager, RunEntity, rows[0]) : null;
}

/** A session's delegated runs still queued or running. */
export function pendingDelegatedRuns(manager: EntityManager, sessionId: string): Read<RunEntity[]> {
  return entitiesRead(manager, RunEntity, `WHERE session_id = $1 AND kind = '${RunKind.DELEGATED}' AND status = ANY($2::text[])`, [
    sessionId,
    ACTIVE_RUN_STATUSES,
  ]);
}
