import { EntityManager } from 'typeorm';

/** A lineage past its account's retention, claimed for erasure. */
export interface DueLineage {
  originId: string;
  accountId: string;
  retentionDays: number;
}

/**
 * Whether the lineage starting at `origin` has had nothing new since its account's cutoff: no
 * session created and no event appended after it (each session's last event is one probe by key).
 */
const QUIET_SINCE_CUTOFF = `NOT EXISTS (
  SELECT 1 FROM sessions member
  LEFT JOIN events newest ON newest.session_id = member.id AND newest.seq = member.event_count
  WHERE member.origin_id = origin.id
    AND (member.created_at >= $1::timestamptz - policy.retention_days * interval '1 day'
         OR newest.created_at >= $1::timestamptz - policy.retention_days * interval '1 day'))`;

/**
 * Claims one lineage whose last event is older than its account's retention period as of `now`,
 * and that still has content: its origin's row is locked, and SKIP LOCKED lets sweeps of other
 * processes pass over it to the next, as workers claim runs. Null when none is due.
 */
export async function claimDueLineage(manager: EntityManager, now: Date): Promise<DueLineage | null> {
  // Per account, its origins oldest first through the account's index on (account_id, created_at),
  // stopping at the first that is due: the sweep never reads every session.
  const rows: { origin_id: string; account_id: string; retention_days: number }[] = await manager.query(
    `SELECT due.origin_id, policy.account_id, policy.retention_days
     FROM retention_policies policy
     CROSS JOIN LATERAL (
       SELECT origin.id AS origin_id, origin.created_at
       FROM sessions origin
       WHERE origin.account_id = policy.account_id AND origin.id = origin.origin_id
         AND origin.created_at < $1::timestamptz - policy.retention_days * interval '1 day'
         AND EXISTS (SELECT 1 FROM sessions live WHERE live.origin_id = origin.id AND live.erased_at IS NULL)
         AND ${QUIET_SINCE_CUTOFF}
       ORDER BY origin.created_at, origin.id
       LIMIT 1
       FOR UPDATE OF origin SKIP LOCKED
     ) due
     ORDER BY due.created_at, due.origin_id
     LIMIT 1`,
    [now],
  );
  return rows.length ? { originId: rows[0].origin_id, accountId: rows[0].account_id, retentionDays: rows[0].retention_days } : null;
}

/** Whether the claimed lineage is still due, asked again once all its sessions are locked (nothing can be appended to them then). */
export async function stillDue(manager: EntityManager, lineage: DueLineage, now: Date): Promise<boolean> {
  const rows: unknown[] = await manager.query(
    `SELECT 1 FROM sessions origin JOIN retention_policies policy ON policy.account_id = origin.account_id
     WHERE origin.id = $2 AND ${QUIET_SINCE_CUTOFF}`,
    [now, lineage.originId],
  );
  return rows.length === 1;
}
