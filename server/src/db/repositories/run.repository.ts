import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { RunKind, RunStatus } from '../../domain/runs';
import { RunEntity } from '../entities/run.entity';
import { entityFromRow, returnedRows } from '../rows';

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
    id: randomUUID(),
    accountId: run.accountId,
    sessionId: run.sessionId,
    kind: run.kind,
    status: RunStatus.QUEUED,
    childSessionId: run.childSessionId ?? null,
    toolCallId: run.toolCallId ?? null,
    error: null,
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
 * a session's turns run one at a time.
 */
export async function claimRun(manager: EntityManager, owner: string, leaseMs: number): Promise<RunEntity | null> {
  const rows = returnedRows(
    await manager.query(
      `UPDATE runs SET status = 'RUNNING', attempt = attempt + 1, lease_owner = $1,
              lease_expires_at = now() + $2 * interval '1 millisecond', started_at = coalesce(started_at, now()),
              error = NULL, updated_at = now()
       WHERE id = (
         SELECT candidate.id FROM runs candidate
         WHERE (candidate.status = 'QUEUED' OR (candidate.status = 'RUNNING' AND candidate.lease_expires_at < now()))
           AND NOT EXISTS (
             SELECT 1 FROM runs busy
             WHERE busy.session_id = candidate.session_id AND busy.kind = 'TURN' AND candidate.kind = 'TURN'
               AND busy.id <> candidate.id AND busy.status = 'RUNNING' AND busy.lease_expires_at >= now())
         ORDER BY candidate.created_at, candidate.id
         LIMIT 1
         FOR UPDATE SKIP LOCKED)
       RETURNING *`,
      [owner, leaseMs],
    ),
  );
  return rows.length ? entityFromRow(manager, RunEntity, rows[0]) : null;
}

/** Extends a live lease; false when the run is no longer this lease's (taken over, retried or settled). */
export async function renewLease(manager: EntityManager, lease: Lease, leaseMs: number): Promise<boolean> {
  const rows = returnedRows(
    await manager.query(
      `UPDATE runs SET lease_expires_at = now() + $4 * interval '1 millisecond'
       WHERE id = $1 AND lease_owner = $2 AND attempt = $3 AND status = 'RUNNING'
       RETURNING id`,
      [lease.runId, lease.owner, lease.attempt, leaseMs],
    ),
  );
  return rows.length === 1;
}

/**
 * Locks the leased run for the rest of the transaction, or null when the lease is lost: every
 * write a worker makes for a run goes through this, so a worker that lost its run writes nothing.
 */
export async function lockLeasedRun(manager: EntityManager, lease: Lease): Promise<RunEntity | null> {
  const rows: Record<string, unknown>[] = await manager.query(
    `SELECT * FROM runs WHERE id = $1 AND lease_owner = $2 AND attempt = $3 AND status = 'RUNNING' FOR UPDATE`,
    [lease.runId, lease.owner, lease.attempt],
  );
  return rows.length ? entityFromRow(manager, RunEntity, rows[0]) : null;
}

/** Settles a leased run (locked with {@link lockLeasedRun}) and releases its lease. */
export async function settleRun(
  manager: EntityManager,
  run: RunEntity,
  status: typeof RunStatus.SUCCEEDED | typeof RunStatus.FAILED,
  error: string | null,
): Promise<RunEntity> {
  const rows = returnedRows(
    await manager.query(
      `UPDATE runs SET status = $2, error = $3, lease_owner = NULL, lease_expires_at = NULL,
              finished_at = now(), updated_at = now()
       WHERE id = $1 RETURNING *`,
      [run.id, status, error],
    ),
  );
  return entityFromRow(manager, RunEntity, rows[0]);
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
