import { DataSource, EntityManager } from 'typeorm';
import { sha256 } from '../../shared/sha256';
import type { DatabasePoolMode } from './pool-mode';

/** Data sources whose connections keep prepared statements: PostgreSQL servers reached directly or pooled by session. */
const preparing = new WeakSet<DataSource>();
/** Data sources on PostgreSQL, in either pool mode: write transactions pipeline their statements there. */
const pipelining = new WeakSet<DataSource>();

/**
 * Lets `preparedQuery` keep statements on this data source's connections, unless they go through
 * a transaction pooler: a statement prepared in one transaction would be on a backend the next one
 * may not get, and its name taken on a backend another client gets. Not for the embedded database
 * at all: its single backend outlives the pooled connection, so a reconnect would find the
 * statement names already taken.
 */
export function keepPreparedStatements(dataSource: DataSource, poolMode: DatabasePoolMode): void {
  pipelining.add(dataSource);
  if (poolMode === 'session') preparing.add(dataSource);
}

export function keepsPreparedStatements(dataSource: DataSource): boolean {
  return preparing.has(dataSource);
}

/** Whether write transactions send BEGIN and COMMIT with their first and last statements: on PostgreSQL. */
export function pipelinesWrites(dataSource: DataSource): boolean {
  return pipelining.has(dataSource);
}

const hashes = new Map<string, string>();
const HASHES_KEPT = 1_000;

/** A short hash of a statement's text, to name it by: kept, since the same few texts recur. */
export function statementHash(text: string): string {
  let hash = hashes.get(text);
  if (!hash) {
    if (hashes.size >= HASHES_KEPT) hashes.clear();
    hash = sha256(text).slice(0, 24);
    hashes.set(text, hash);
  }
  return hash;
}

/**
 * A parameterized query that PostgreSQL parses and plans once per connection and then only
 * binds: for hot statements of a few fixed shapes. Its text must name its columns rather than
 * select `*`, so that a migration adding a column cannot change the result of a kept statement.
 */
export function preparedQuery<T = Record<string, unknown>[]>(manager: EntityManager, text: string, values: unknown[]): Promise<T> {
  if (!preparing.has(manager.connection)) return manager.query(text, values);
  // TypeORM passes the query through to `pg`, which parses a named statement once per connection.
  return manager.query({ name: `sc_${statementHash(text)}`, text } as unknown as string, values);
}
