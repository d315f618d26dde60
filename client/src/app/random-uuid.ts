/** The part of Web Crypto a random UUID needs; `randomUUID` only where the page is a secure context. */
export type RandomSource = Pick<Crypto, 'getRandomValues'> & { randomUUID?: () => string };

/**
 * A random (v4) UUID, for client message ids and idempotency keys. `crypto.randomUUID` exists only
 * in secure contexts (HTTPS, localhost): a page served over plain HTTP from another host has only
 * `crypto.getRandomValues`, which is as random.
 */
export function randomUUID(source: RandomSource = globalThis.crypto): string {
  if (typeof source.randomUUID === 'function') return source.randomUUID();
  const bytes = source.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40; // version 4
  bytes[8] = (bytes[8] & 0x3f) | 0x80; // the RFC 9562 variant
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
