/** The key of an `Authorization: Bearer <key>` header value, or null. */
export function bearerKey(header: unknown): string | null {
  if (typeof header !== 'string') return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}
