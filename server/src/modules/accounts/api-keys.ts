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
