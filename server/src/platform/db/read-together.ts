import { EntityManager } from 'typeorm';

/**
 * Runs `reads` at once where each query draws a connection of its own from the pool, and one after
 * another on a transaction's manager: its one connection runs them in turn anyway, and `pg`
 * deprecates queueing a query on a connection still busy with another (its version 9 refuses it).
 */
export async function readTogether<T extends readonly unknown[]>(manager: EntityManager, reads: { [K in keyof T]: () => Promise<T[K]> }): Promise<T> {
  const thunks = reads as readonly (() => Promise<unknown>)[];
  if (!manager.queryRunner) return (await Promise.all(thunks.map((read) => read()))) as unknown as T;
  const results: unknown[] = [];
  for (const read of thunks) results.push(await read());
  return results as unknown as T;
}
