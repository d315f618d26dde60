import { EntityManager } from 'typeorm';
import { keepsPreparedStatements, pipelinesWrites, preparedQuery } from './prepared';
import { Sql, pipelinedName, runBatch } from './write-transaction';

/** A read: a statement, kept prepared, and what its rows become. */
export interface Read<T> extends Sql {
  result(rows: Record<string, unknown>[]): T;
}

/** A read the caller can answer without the database (nothing to look up): no statement is sent. */
export function answered<T>(value: T): Read<T> {
  return { text: '', values: [], result: () => value };
}

/** Runs one read as a kept statement on `manager`. */
export async function runRead<T>(manager: EntityManager, read: Read<T>): Promise<T> {
  return read.result(read.text ? await preparedQuery<Record<string, unknown>[]>(manager, read.text, read.values) : []);
}

/**
 * Runs `reads` in one round trip on one pooled connection where statements pipeline (PostgreSQL):
 * sent together with one Sync, so that PostgreSQL runs them in order as one implicit transaction,
 * each statement seeing what was committed when it started. Reads that each drew a connection of
 * their own cost a round trip, a pooled connection and a wake-up of its backend apiece: most of a
 * turn's start, whose reads are a handful of index lookups. One after another on a transaction's
 * manager, and on the embedded database, whose one connection runs them in turn anyway.
 */
export async function readInOneRoundTrip<T extends readonly unknown[] | []>(manager: EntityManager, reads: { readonly [K in keyof T]: Read<T[K]> }): Promise<T> {
  const list = reads as readonly Read<unknown>[];
  const sent = list.filter((read) => read.text !== '');
  const dataSource = manager.connection;
  if (manager.queryRunner || !pipelinesWrites(dataSource) || sent.length < 2) {
    const results: unknown[] = [];
    for (const read of list) results.push(await runRead(manager, read));
    return results as unknown as T;
  }
  const kept = keepsPreparedStatements(dataSource);
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    const results = await runBatch(
      runner,
      sent.map(({ text, values }) => ({ text, values, name: kept ? pipelinedName(text) : '' })),
    );
    return list.map((read) => read.result(read.text ? results[sent.indexOf(read)].rows : [])) as unknown as T;
  } finally {
    await runner.release();
  }
}
