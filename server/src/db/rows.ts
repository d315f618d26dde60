import { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';

/**
 * An entity from a raw row (or a row_to_json object) of its table: column names mapped to
 * properties, timestamps to Dates. Lets hand-written SQL fetch several things in one round trip.
 */
export function entityFromRow<T extends ObjectLiteral>(manager: EntityManager, target: EntityTarget<T>, row: Record<string, unknown>): T {
  const metadata = manager.connection.getMetadata(target);
  const entity = metadata.create() as T;
  for (const column of metadata.columns) {
    const value = row[column.databaseName];
    const isTimestamp = column.type === 'timestamptz' || column.type === 'timestamp with time zone';
    (entity as Record<string, unknown>)[column.propertyName] = isTimestamp && value != null ? new Date(value as string) : value;
  }
  return entity;
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
