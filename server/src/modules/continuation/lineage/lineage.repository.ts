import { EntityManager, In } from 'typeorm';
import { ContinuationEdgeEntity } from '../continuation-edge.entity';
import { SessionEntity } from '../../conversation/session.entity';
import { entityFromRow } from '../../../platform/db/rows';

/**
 * The path from the lineage's origin to `sessionId` (origin first), in one recursive query
 * whatever the depth. Empty when the session is not in the account.
 */
export async function lineagePath(manager: EntityManager, accountId: string, sessionId: string): Promise<SessionEntity[]> {
  const rows: Record<string, unknown>[] = await manager.query(
    // Each step and each session is a probe by key (a LIMITed subquery is never folded into a join
    // that could scan the tables), whatever the planner guesses the path's length to be.
    `WITH RECURSIVE path (id, hops) AS (
       SELECT id, 0 FROM sessions WHERE id = $1 AND account_id = $2
       UNION ALL
       SELECT edge.predecessor_id, path.hops + 1
       FROM path CROSS JOIN LATERAL (SELECT predecessor_id FROM continuation_edges WHERE successor_id = path.id LIMIT 1) edge
     )
     SELECT session.* FROM path CROSS JOIN LATERAL (SELECT * FROM sessions WHERE sessions.id = path.id LIMIT 1) session
     ORDER BY path.hops DESC`,
    [sessionId, accountId],
  );
  return rows.map((row) => entityFromRow(manager, SessionEntity, row));
}

/**
 * The session at the end of the newest continuation chain from `sessionId`: at each step the
 * newest successor. The session itself when it has none; null when it is not in the account.
 */
export async function currentContinuation(
  manager: EntityManager,
  accountId: string,
  sessionId: string,
): Promise<SessionEntity | null> {
  const rows: Record<string, unknown>[] = await manager.query(
    `WITH RECURSIVE chain (id, hops) AS (
       SELECT id, 0 FROM sessions WHERE id = $1 AND account_id = $2
       UNION ALL
       SELECT newest.successor_id, chain.hops + 1
       FROM chain
       CROSS JOIN LATERAL (
         SELECT edge.successor_id FROM continuation_edges edge
         WHERE edge.predecessor_id = chain.id
         ORDER BY edge.created_at DESC, edge.id DESC LIMIT 1
       ) newest
     )
     SELECT session.* FROM chain JOIN sessions session ON session.id = chain.id ORDER BY chain.hops DESC LIMIT 1`,
    [sessionId, accountId],
  );
  return rows.length ? entityFromRow(manager, SessionEntity, rows[0]) : null;
}

export interface LineageTreeNode {
  session: SessionEntity;
  edge: ContinuationEdgeEntity | null;
}

/** Every session of the lineage that starts at `originId`, shallowest first, each with the edge into it. */
export async function lineageTree(manager: EntityManager, accountId: string, originId: string): Promise<LineageTreeNode[]> {
  const sessions = await manager.find(SessionEntity, {
    where: { accountId, originId },
    order: { lineageDepth: 'ASC', createdAt: 'ASC', id: 'ASC' },
  });
  const edges = sessions.length
    ? await manager.findBy(ContinuationEdgeEntity, { accountId, successorId: In(sessions.map((session) => session.id)) })
    : [];
  const edgeBySuccessor = new Map(edges.map((edge) => [edge.successorId, edge]));
  return sessions.map((session) => ({ session, edge: edgeBySuccessor.get(session.id) ?? null }));
}
