import { ErrorDetail } from './errors';

/**
 * NUL, which PostgreSQL refuses in text and JSON, and UTF-16 surrogates without their pair, which
 * it refuses in JSON and silently replaces in text (so the stored text would no longer match its hash).
 */
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const UNSTORABLE_TEXT_MESSAGE = 'Text must not contain NUL characters or unpaired UTF-16 surrogates.';

/**
 * Where a value holds text the database cannot store: each string (and each object key) in it,
 * at any depth, addressed by its path below `path`.
 */
export function unstorableText(value: unknown, path: string[]): ErrorDetail[] {
  if (typeof value === 'string') return UNSTORABLE.test(value) ? [{ path, message: UNSTORABLE_TEXT_MESSAGE }] : [];
  if (Array.isArray(value)) return value.flatMap((item, index) => unstorableText(item, [...path, String(index)]));
  if (value === null || typeof value !== 'object' || value instanceof Date) return [];
  return Object.entries(value).flatMap(([key, item]) => [
    ...(UNSTORABLE.test(key) ? [{ path: [...path, key], message: UNSTORABLE_TEXT_MESSAGE }] : []),
    ...unstorableText(item, [...path, key]),
  ]);
}
