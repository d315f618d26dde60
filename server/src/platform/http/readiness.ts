import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource } from 'typeorm';
import type { ReplicaState } from '../db/history-reads';

/** One dependency's state as `/readyz` shows it. */
export interface DependencyState {
  ok: boolean;
  /** What does not work, for an operator; absent when it works. */
  error?: string;
}

/** What `/readyz` answers: ready only when every dependency works. */
export interface ReadinessReport {
  ready: boolean;
  database: DependencyState;
  /** Cross-process delivery of subscriptions: Redis, LISTEN/NOTIFY on PostgreSQL, or in-process on the embedded database. */
  delivery: DependencyState & { mode: 'postgres' | 'redis' | 'in-process' };
  /** The streaming replica history reads go to (DATABASE_REPLICA_URL), and how far behind it is; absent without one. Reads fall back to the primary while it is down, so it does not decide `ready`. */
  replica?: ReplicaState;
}

/** A database that takes longer than this to answer `SELECT 1` counts as down. */
const DATABASE_TIMEOUT_MS = 2_000;

async function databaseState(dataSource: DataSource): Promise<DependencyState> {
  const timeout = new AbortController();
  try {
    await Promise.race([
      dataSource.query('SELECT 1'),
      sleep(DATABASE_TIMEOUT_MS, undefined, { signal: timeout.signal }).then(() => {
        throw new Error(`no answer within ${DATABASE_TIMEOUT_MS} ms`);
      }),
    ]);
    return { ok: true };
  } catch (error) {
    return { ok: false, error: `The database does not answer: ${error instanceof Error ? error.message : String(error)}` };
  } finally {
    timeout.abort();
  }
}

/**
 * Whether this process can serve: its database answers, and publishes reach subscribers on
 * every process (`crossProcess` is null when delivery is in-process: the embedded database without Redis).
 */
export async function readinessReport(
  dataSource: DataSource,
  crossProcess: { connected: boolean; mode: 'postgres' | 'redis' } | null,
  replica: () => Promise<ReplicaState | null> = async () => null,
): Promise<ReadinessReport> {
  const [database, replicaState] = await Promise.all([databaseState(dataSource), replica()]);
  const down = { postgres: 'The LISTEN connection to PostgreSQL is down; reconnecting.', redis: 'The connection to Redis is down; reconnecting.' };
  const delivery: ReadinessReport['delivery'] = !crossProcess
    ? { ok: true, mode: 'in-process' }
    : crossProcess.connected
      ? { ok: true, mode: crossProcess.mode }
      : { ok: false, mode: crossProcess.mode, error: down[crossProcess.mode] };
  return { ready: database.ok && delivery.ok, database, delivery, ...(replicaState ? { replica: replicaState } : {}) };
}
