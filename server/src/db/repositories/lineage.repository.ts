import { EntityManager, In } from 'typeorm';
import { ContinuationEdgeEntity } from '../entities/continuation-edge.entity';
import { SessionEntity } from '../entities/session.entity';

/** A session row as PostgreSQL returns it from raw SQL. */
interface SessionRow {
  id: string;
  account_id: string;
  kind: SessionEntity['kind'];
  status: SessionEntity['status'];
  title: string;
  description: string | null;
  created_at: Date;
  event_count: number;
  token_count: number;
  last_event_hash: string;
  origin_id: string;
  lineage_depth: number;
  continuation_streak: number;
}

function sessionFromRow(row: SessionRow): SessionEntity {
  return Object.assign(new SessionEntity(), {
    id: row.id,
    accountId: row.account_id,
    kind: row.kind,
    status: row.status,
    title: row.title,
    description: row.description,
    createdAt: new Date(row.created_at),
    eventCount: row.event_count,
    tokenCount: row.token_count,
    lastEventHash: row.last_event_hash,
    originId: row.origin_id,
    lineageDepth: row.lineage_depth,
    continuationStreak: row.continuation_streak,
  });
}

/**
 * The path from the lineage's origin to `sessionId` (origin first), in one recursive query
 * whatever the depth. Empty when the session is not in the account.
 */
export async function lineagePath(manager: EntityManager, accountId: string, sessionId: string): Promise<SessionEntity[]> {
  const rows: SessionRow[] = await manager.query(
    `WITH RECURSIVE path (id, hops) AS (
       SELECT id, 0 FROM sessions WHERE id = $1 AND account_id = $2
       UNION ALL
       SELECT edge.predecessor_id, path.hops + 1
       FROM path JOIN continuation_edges edge ON edge.successor_id = path.id
     )
     SELECT session.* FROM path JOIN sessions session ON session.id = path.id ORDER BY path.hops DESC`,
    [sessionId, accountId],
  );
  return rows.map(sessionFromRow);
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
  const rows: SessionRow[] = await manager.query(
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
  return rows.length ? sessionFromRow(rows[0]) : null;
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
