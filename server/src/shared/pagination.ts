import { ErrorDetail } from './errors';

/** The most items one page may hold; a larger request is refused, not silently trimmed. */
export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 50;

export function validatePageSize(name: string, value: number | null | undefined): ErrorDetail[] {
  if (value == null) return [];
  if (!Number.isInteger(value) || value < 0 || value > MAX_PAGE_SIZE) {
    return [{ path: [name], message: `${name} must be between 0 and ${MAX_PAGE_SIZE}.` }];
  }
  return [];
}

/** Opaque cursor over an ordered key; the prefix keeps cursors of different lists apart. */
export function encodeCursor(prefix: string, key: string | number): string {
  return Buffer.from(`${prefix}:${key}`, 'utf8').toString('base64url');
}

/** The key inside a cursor made by {@link encodeCursor}, or null when it is not one of `prefix`. */
export function decodeCursor(prefix: string, cursor: string): string | null {
  const decoded = Buffer.from(cursor, 'base64url').toString('utf8');
  return decoded.startsWith(`${prefix}:`) ? decoded.slice(prefix.length + 1) : null;
}
