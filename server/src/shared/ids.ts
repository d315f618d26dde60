import { v7 } from 'uuid';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids are UUIDs; anything else cannot name a row and is treated as unknown rather than as a fault. */
export function isId(value: string): boolean {
  return UUID.test(value);
}

/**
 * A new row's id: a UUIDv7, whose leading bits are the time it was made. Rows made together sit
 * together in every index keyed by their id (the sessions', the events', the search statistics'
 * keyed by account, word and session), so an append touches the few pages at the end of each
 * range, which stay in the buffer pool, rather than a random page of an index that outgrows it.
 */
export function newRowId(): string {
  return v7();
}
