import { Client, Pool } from 'pg';
import { GraphQLClient } from './graphql';
import { median } from './stats';
import { newRowId } from '../server/src/shared/ids';

/**
 * A chain of `depth` continuations below `rootId`, written directly in SQL in one transaction: the
 * sessions with their origin and depth, and an edge into each that satisfies the depth constraints.
 * Every edge cites the root's first message, which the edge's foreign key needs and the lineage
 * query never reads. Returns the id of the deepest session.
 */
export async function buildChain(pool: Pool, accountId: string, rootId: string, initiatingEventId: string, depth: number): Promise<string> {
  const successors = Array.from({ length: depth }, () => newRowId());
  const predecessors = [rootId, ...successors.slice(0, -1)];
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO sessions (id, account_id, kind, status, title, created_at, origin_id, lineage_depth, continuation_streak)
       SELECT chain.id, $2, 'CONTINUATION', CASE WHEN chain.depth = $3 THEN 'ACTIVE' ELSE 'CONTINUED' END, 'Part ' || chain.depth,
              now() + chain.depth * interval '1 millisecond', $4, chain.depth, 1
       FROM unnest($1::uuid[]) WITH ORDINALITY AS chain (id, depth)`,
      [successors, accountId, depth, rootId],
    );
    await client.query(
      `INSERT INTO continuation_edges (id, account_id, predecessor_id, predecessor_depth, successor_id, successor_depth, reason, actor,
                                       initiating_event_id, idempotency_key, request_fingerprint, created_at)
       SELECT gen_random_uuid(), $3, chain.predecessor, chain.depth - 1, chain.successor, chain.depth, 'CONTEXT_PRESSURE', 'AGENT',
              $4, 'chain-' || chain.successor, md5(chain.successor::text), now() + chain.depth * interval '1 millisecond'
       FROM unnest($1::uuid[], $2::uuid[]) WITH ORDINALITY AS chain (predecessor, successor, depth)`,
      [predecessors, successors, accountId, initiatingEventId],
    );
    await client.query(`UPDATE sessions SET status = 'CONTINUED' WHERE id = $1`, [rootId]);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
  // Fresh planner statistics for both sides alike, as autovacuum would give a long-running database.
  await pool.query('ANALYZE sessions, continuation_edges');
  return successors[successors.length - 1];
}

const LINEAGE_QUERY = 'query ($id: ID!) { session(id: $id) { lineage { id } } }';

/** The server's lineage SQL, verbatim in shape. */
const LINEAGE_SQL = `WITH RECURSIVE path (id, hops) AS (
       SELECT id, 0 FROM sessions WHERE id = $1 AND account_id = $2
       UNION ALL
       SELECT edge.predecessor_id, path.hops + 1
       FROM path JOIN continuation_edges edge ON edge.successor_id = path.id
     )
     SELECT session.* FROM path JOIN sessions session ON session.id = path.id ORDER BY path.hops DESC`;

export async function lineageOverHttp(client: GraphQLClient, sessionId: string, expected: number): Promise<void> {
  const { session } = await client.data<{ session: { lineage: { id: string }[] } | null }>(LINEAGE_QUERY, { id: sessionId });
  if (session?.lineage.length !== expected) throw new Error(`Lineage has ${session?.lineage.length} sessions, expected ${expected}`);
}

export async function lineageInSql(client: Client, accountId: string, sessionId: string, expected: number): Promise<void> {
  const { rowCount } = await client.query(LINEAGE_SQL, [sessionId, accountId]);
  if (rowCount !== expected) throw new Error(`Lineage has ${rowCount} sessions, expected ${expected}`);
}

/**
 * Median milliseconds of `runs` sequential calls of each of `first` and `second`, after `warmup`
 * untimed ones. The two alternate, so that both see the same moments of a noisy machine.
 */
export async function alternatingMedians(
  runs: number,
  warmup: number,
  first: () => Promise<void>,
  second: () => Promise<void>,
): Promise<[number, number]> {
  const samples: [number[], number[]] = [[], []];
  for (let i = 0; i < warmup + runs; i++) {
    for (const [side, call] of [first, second].entries()) {
      const started = performance.now();
      await call();
      if (i >= warmup) samples[side].push(performance.now() - started);
    }
  }
  return [median(samples[0]), median(samples[1])];
}
