import type { DataSource } from 'typeorm';

/**
 * How the server's connections reach PostgreSQL. `session`: each connection keeps one backend for
 * its life (a direct connection, or a pooler in session mode). `transaction`: a pooler such as
 * PgBouncer in `pool_mode = transaction` hands each transaction whichever backend is free, so
 * nothing may outlive a transaction on it (named prepared statements, SET, advisory locks, LISTEN).
 */
export type DatabasePoolMode = 'session' | 'transaction';

export const DATABASE_POOL_MODES: readonly DatabasePoolMode[] = ['session', 'transaction'];

async function backendPid(runner: ReturnType<DataSource['createQueryRunner']>): Promise<number> {
  const [row] = await runner.query('SELECT pg_backend_pid() AS pid');
  return Number(row.pid);
}

/**
 * Finds out whether the data source's connections share backends, as they do behind a transaction
 * pooler: two connections, each asking twice, in turn, which backend answers. Directly or through a
 * session pooler each keeps its own backend; behind a transaction pooler a backend that one released
 * serves the other (PgBouncer hands out the one released last), or a connection moves between them.
 * A pooler that handed out backends round robin from a large idle pool could pass unseen: set
 * DATABASE_POOL_MODE there.
 */
export async function detectPoolMode(dataSource: DataSource): Promise<DatabasePoolMode> {
  const first = dataSource.createQueryRunner();
  const second = dataSource.createQueryRunner();
  try {
    await first.connect();
    await second.connect();
    const pids = [];
    for (const runner of [first, second, first, second]) pids.push(await backendPid(runner));
    const [a, b, againA, againB] = pids;
    return a === b || a !== againA || b !== againB ? 'transaction' : 'session';
  } finally {
    await first.release();
    await second.release();
  }
}
