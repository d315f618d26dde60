/** The value conversion `pg` applies to query parameters (dates, arrays, JSON), which it does not declare. */
declare module 'pg/lib/utils' {
  export function prepareValue(value: unknown): unknown;
}
