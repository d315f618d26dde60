import { randomUUID } from 'node:crypto';

/** A write to fail: its name (in the error), its table and operation, and a row condition that picks out exactly that write. */
export type FaultStep = [name: string, table: string, operation: 'INSERT' | 'UPDATE' | 'DELETE', condition: string];

type Sql = (text: string, parameters?: unknown[]) => Promise<unknown>;

/**
 * A trigger failing the write `step` picks out among `accountId`'s rows, with "injected fault:
 * <name>"; returns what removes it. Named afresh each time: test files share the database.
 */
export async function injectFault(sql: Sql, accountId: string, [name, table, operation, condition]: FaultStep): Promise<() => Promise<void>> {
  const fn = `inject_fault_${randomUUID().replace(/-/g, '')}`;
  const row = operation === 'DELETE' ? 'OLD' : 'NEW';
  await sql(`CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected fault: ${name.replace(/'/g, "''")}'; END $$`);
  await sql(`CREATE TRIGGER ${fn} BEFORE ${operation} ON ${table} FOR EACH ROW WHEN (${row}.account_id = '${accountId}' AND ${condition}) EXECUTE FUNCTION ${fn}()`);
  return async () => {
    await sql(`DROP TRIGGER ${fn} ON ${table}`);
    await sql(`DROP FUNCTION ${fn}()`);
  };
}
