const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids are UUIDs; anything else cannot name a row and is treated as unknown rather than as a fault. */
export function isId(value: string): boolean {
  return UUID.test(value);
}
