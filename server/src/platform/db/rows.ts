import { DataSource, EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import { isId } from '../../shared/ids';
import { Read, runRead } from './read-batch';

interface ColumnMapping {
  databaseName: string;
  propertyName: string;
  isTimestamp: boolean;
  isJson: boolean;
}

interface EntityMapping {
  target: new () => unknown;
  tableName: string;
  columns: ColumnMapping[];
  selectLists: Map<string, string>;
}

/**
 * Per entity, its table and its columns as raw rows name them: worked out once, since a lineage
 * maps a thousand rows at a time and a continuation's write reads every column of five tables.
 */
const mappings = new WeakMap<object, EntityMapping>();

function mappingOf(manager: EntityManager, target: EntityTarget<ObjectLiteral>): EntityMapping {
  const metadata = manager.connection.getMetadata(target);
  let mapping = mappings.get(metadata);
  if (!mapping) {
    mapping = {
      target: metadata.target as new () => unknown,
      tableName: metadata.tableName,
      columns: metadata.columns.map((column) => ({
        databaseName: column.databaseName,
        propertyName: column.propertyName,
        isTimestamp: column.type === 'timestamptz' || column.type === 'timestamp with time zone',
        isJson: column.type === 'jsonb',
      })),
      selectLists: new Map(),
    };
    mappings.set(metadata, mapping);
  }
  return mapping;
}

/** An entity's table and every mapped column, in the entity's order. */
export function tableColumns(manager: EntityManager, target: EntityTarget<ObjectLiteral>): { tableName: string; columns: readonly ColumnMapping[] } {
  return mappingOf(manager, target);
}

/** The table's columns as a SELECT list, e.g. `event.id, event.seq, ...` with `alias`: written once per alias, as hot statements name them on every call. */
export function columnList(manager: EntityManager, target: EntityTarget<ObjectLiteral>, alias?: string): string {
  const { columns, selectLists } = mappingOf(manager, target);
  const key = alias ?? '';
  let list = selectLists.get(key);
  if (list === undefined) {
    list = columns.map(({ databaseName }) => (alias ? `${alias}.${databaseName}` : databaseName)).join(', ');
    selectLists.set(key, list);
  }
  return list;
}

/**
 * A statement text built from entity metadata once per data source. Hot statements are named by a
 * hash of their text: the same string each time is hashed once, a new one on every call.
 */
export function textPerDataSource(build: (manager: EntityManager) => string): (manager: EntityManager) => string {
  const texts = new WeakMap<DataSource, string>();
  return (manager) => {
    let text = texts.get(manager.connection);
    if (text === undefined) {
      text = build(manager);
      texts.set(manager.connection, text);
    }
    return text;
  };
}

/**
 * An entity from a raw row (or a row_to_json object) of its table: column names mapped to
 * properties, timestamps to Dates. Lets hand-written SQL fetch several things in one round trip.
 */
export function entityFromRow<T extends ObjectLiteral>(manager: EntityManager, target: EntityTarget<T>, row: Record<string, unknown>): T {
  const { target: entityClass, columns } = mappingOf(manager, target);
  const entity = new entityClass() as Record<string, unknown>;
  for (const { databaseName, propertyName, isTimestamp } of columns) {
    const value = row[databaseName];
    entity[propertyName] = isTimestamp && value != null ? new Date(value as string) : value;
  }
  return entity as T;
}

/**
 * The rows an UPDATE or DELETE ... RETURNING gave back: TypeORM's `query` answers those with
 * `[rows, affectedCount]` rather than the rows alone.
 */
export function returnedRows(result: unknown): Record<string, unknown>[] {
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') {
    return result[0] as Record<string, unknown>[];
  }
  return result as Record<string, unknown>[];
}

/**
 * Entities read by a kept statement, `SELECT <the table's columns> FROM <its table> <rest>`: for
 * hot reads that TypeORM's finders would build, parse and plan again on every call. Run it alone
 * (`runRead`) or with others (`readInOneRoundTrip`).
 */
export function entitiesRead<T extends ObjectLiteral>(manager: EntityManager, target: EntityTarget<T>, rest: string, values: unknown[]): Read<T[]> {
  const { tableName } = mappingOf(manager, target);
  return {
    text: `SELECT ${columnList(manager, target)} FROM ${tableName} ${rest}`,
    values,
    result: (rows) => rows.map((row) => entityFromRow(manager, target, row)),
  };
}

/** SQL narrowing and ordering each id's rows inside its probe (after the account's filter), its parameters numbered from $3. */
export interface EachIdRows {
  text: string;
  values: unknown[];
}

/**
 * An account's entities whose `column` (a uuid column, indexed) is one of `ids` (those that are ids
 * at all), each id's rows narrowed by `each`, then `order` (of the table's columns): the batch a
 * GraphQL loader reads on nearly every request, as a kept statement. One index probe per id,
 * whatever the table held when the connection planned it: a generic plan of `column = ANY($2)`
 * reads a small table whole.
 */
export async function accountRows<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  column: string,
  accountId: string,
  ids: readonly string[],
  order = '',
  each: EachIdRows = { text: '', values: [] },
): Promise<T[]> {
  const wanted = [...new Set(ids.filter(isId))];
  if (wanted.length === 0) return [];
  const { tableName } = mappingOf(manager, target);
  const text = `SELECT ${columnList(manager, target, 'found')} FROM unnest($2::uuid[]) AS wanted (key)
    CROSS JOIN LATERAL (SELECT * FROM ${tableName} WHERE ${column} = wanted.key AND account_id = $1 ${each.text} OFFSET 0) found ${order}`;
  const values = [accountId, wanted, ...each.values];
  return runRead(manager, { text, values, result: (rows) => rows.map((row) => entityFromRow(manager, target, row)) });
}

/** The first entity a read of entities finds, or null. */
export function firstOf<T>(read: Read<T[]>): Read<T | null> {
  return { text: read.text, values: read.values, result: (rows) => read.result(rows)[0] ?? null };
}
