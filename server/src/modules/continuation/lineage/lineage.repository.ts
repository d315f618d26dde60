import { EntityManager } from 'typeorm';
import { ContinuationEdgeEntity } from '../continuation-edge.entity';
import { SessionEntity } from '../../conversation/session.entity';
import { accountRows, entityFromRow } from '../../../platform/db/rows';
import { alignMany, alignOne } from '../../../shared/batch';
import { isId } from '../../../shared/ids';

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
 * For each of `sessionIds`, the session at the end of the newest continuation chain from it: at
 * each step the newest successor. The session itself when it has none; null when it is not in the
 * account. One recursive query however many chains, each step a probe by key.
 */
export async function currentContinuations(
  manager: EntityManager,
  accountId: string,
  sessionIds: readonly string[],
): Promise<(SessionEntity | null)[]> {
  const wanted = [...new Set(sessionIds.filter(isId))];
  const rows: Record<string, unknown>[] = wanted.length
    ? await manager.query(
        `WITH RECURSIVE chain (start, id, hops) AS (
           SELECT wanted.key, found.id, 0 FROM unnest($1::uuid[]) AS wanted (key)
           CROSS JOIN LATERAL (SELECT id FROM sessions WHERE id = wanted.key AND account_id = $2 LIMIT 1) found
           UNION ALL
           SELECT chain.start, newest.successor_id, chain.hops + 1
           FROM chain
           CROSS JOIN LATERAL (
             SELECT edge.successor_id FROM continuation_edges edge
             WHERE edge.predecessor_id = chain.id
             ORDER BY edge.created_at DESC, edge.id DESC LIMIT 1
           ) newest
         ),
         heads AS (SELECT DISTINCT ON (start) start, id FROM chain ORDER BY start, hops DESC)
         SELECT heads.start AS chain_start, session.*
         FROM heads CROSS JOIN LATERAL (SELECT * FROM sessions WHERE sessions.id = heads.id LIMIT 1) session`,
        [wanted, accountId],
      )
    : [];
  const heads = rows.map((row) => ({ start: row.chain_start as string, session: entityFromRow(manager, SessionEntity, row) }));
  return alignOne(sessionIds, heads, (head) => head.start).map((head) => head?.session ?? null);
}

/** The session at the end of the newest continuation chain from `sessionId` (see {@link currentContinuations}). */
export async function currentContinuation(manager: EntityManager, accountId: string, sessionId: string): Promise<SessionEntity | null> {
  return (await currentContinuations(manager, accountId, [sessionId]))[0];
}

export interface LineageTreeNode {
  session: SessionEntity;
  edge: ContinuationEdgeEntity | null;
}

/** For each of `originIds`, every session of the lineage that starts there, shallowest first, each with the edge into it. */
export async function lineageTrees(manager: EntityManager, accountId: string, originIds: readonly string[]): Promise<LineageTreeNode[][]> {
  const sessions = await accountRows(manager, SessionEntity, 'origin_id', accountId, originIds, 'ORDER BY lineage_depth, created_at, id');
  const edges = await accountRows(manager, ContinuationEdgeEntity, 'successor_id', accountId, sessions.map((session) => session.id));
  const edgeBySuccessor = new Map(edges.map((edge) => [edge.successorId, edge]));
  const nodes = sessions.map((session) => ({ session, edge: edgeBySuccessor.get(session.id) ?? null }));
  return alignMany(originIds, nodes, (node) => node.session.originId);
}
