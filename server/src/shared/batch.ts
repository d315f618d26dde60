/** Rows aligned with the keys that asked for them (null where none): what a DataLoader batch returns. */
export function alignOne<T, K>(keys: readonly K[], rows: T[], keyOf: (row: T) => K): (T | null)[] {
  const byKey = new Map(rows.map((row) => [keyOf(row), row]));
  return keys.map((key) => byKey.get(key) ?? null);
}

/** Rows grouped under the keys that asked for them, in the rows' order. */
export function alignMany<T, K>(keys: readonly K[], rows: T[], keyOf: (row: T) => K): T[][] {
  const byKey = new Map<K, T[]>();
  for (const row of rows) {
    const key = keyOf(row);
    const group = byKey.get(key);
    if (group) group.push(row);
    else byKey.set(key, [row]);
  }
  return keys.map((key) => byKey.get(key) ?? []);
}
