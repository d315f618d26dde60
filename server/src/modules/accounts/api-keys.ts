import { createHash, randomBytes } from 'node:crypto';

const API_KEY_PREFIX = 'sck_';

/** A new random API key; only its hash is ever stored. */
export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('base64url');
}

/** Keys are 256 random bits, so a fast hash is enough: no dictionary can reach them. */
export function hashApiKey(apiKey: string): string {
  return createHash('sha256').update(apiKey, 'utf8').digest('hex');
}

/** The key of an `Authorization: Bearer <key>` header value, or null. */
export function bearerKey(header: unknown): string | null {
  if (typeof header !== 'string') return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}
