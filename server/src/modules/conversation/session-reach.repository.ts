import type { EntityManager } from 'typeorm';

/** The origins of the lineages of the account's sessions named (unknown ids are left out). */
export async function sessionOrigins(manager: EntityManager, accountId: string, sessionIds: readonly string[]): Promise<string[]> {
  const rows = (await manager.query(`SELECT DISTINCT origin_id FROM sessions WHERE account_id = $1 AND id = ANY($2::uuid[])`, [accountId, sessionIds])) as { origin_id: string }[];
  return rows.map((row) => row.origin_id);
}

/** How many steps up a session's ancestry is followed: far beyond any real nesting of forks and delegations. */
const ANCESTRY_STEPS_MAX = 64;

/**
 * The origins a session's ancestry passes through: its lineage's origin, then, when that origin is
 * a fork or a delegated session, the origin of the session it came from, and so on up to a root.
 * Empty for a session the account does not have.
 */
export async function ancestryOrigins(manager: EntityManager, accountId: string, sessionId: string): Promise<string[]> {
  const rows = (await manager.query(
    `WITH RECURSIVE ancestry (origin_id, steps) AS (
       SELECT origin_id, 0 FROM sessions WHERE id = $2 AND account_id = $1
       UNION ALL
       SELECT source.origin_id, ancestry.steps + 1
         FROM ancestry
         JOIN sessions origin ON origin.id = ancestry.origin_id
         LEFT JOIN events forked ON forked.id = origin.forked_from_event_id
         JOIN sessions source ON source.id = COALESCE(origin.parent_id, forked.session_id) AND source.account_id = $1
        WHERE ancestry.steps < ${ANCESTRY_STEPS_MAX})
     SELECT origin_id FROM ancestry`,
    [accountId, sessionId],
  )) as { origin_id: string }[];
  return rows.map((row) => row.origin_id);
}
