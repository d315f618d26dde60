import { hash } from 'node:crypto';

/**
 * SHA-256 of `data` (text in UTF-8, or bytes), as 64 lower-case hex digits. One call, with no hash
 * object to make: events, manifests and keys are hashed on every write and request.
 */
export function sha256(data: string | Buffer): string {
  return hash('sha256', data, 'hex');
}
