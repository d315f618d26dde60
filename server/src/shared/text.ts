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
  // Every argument of every request passes here: storable text, the usual case, allocates nothing.
  return holdsUnstorable(value) ? unstorableAt(value, path) : [];
}

function unstorableAt(value: unknown, path: string[]): ErrorDetail[] {
  if (typeof value === 'string') return UNSTORABLE.test(value) ? [{ path, message: UNSTORABLE_TEXT_MESSAGE }] : [];
  if (Array.isArray(value)) return value.flatMap((item, index) => unstorableAt(item, [...path, String(index)]));
  if (value === null || typeof value !== 'object' || value instanceof Date) return [];
  return Object.entries(value).flatMap(([key, item]) => [
    ...(UNSTORABLE.test(key) ? [{ path: [...path, key], message: UNSTORABLE_TEXT_MESSAGE }] : []),
    ...unstorableAt(item, [...path, key]),
  ]);
}

const UNSTORABLE_EVERYWHERE = new RegExp(UNSTORABLE.source, 'g');

/**
 * Text as the database can store it, each NUL or unpaired surrogate replaced by U+FFFD (one code
 * unit for one, so offsets hold): for what the server writes from elsewhere (a model's answer, a
 * tool's result), which cannot be refused the way a request is.
 */
export function storableText(text: string): string {
  return UNSTORABLE.test(text) ? text.replace(UNSTORABLE_EVERYWHERE, '\ufffd') : text;
}

function holdsUnstorable(value: unknown): boolean {
  if (typeof value === 'string') return UNSTORABLE.test(value);
  if (value === null || typeof value !== 'object' || value instanceof Date) return false;
  if (Array.isArray(value)) return value.some(holdsUnstorable);
  const record = value as Record<string, unknown>;
  for (const key in record) {
    if (Object.hasOwn(record, key) && (UNSTORABLE.test(key) || holdsUnstorable(record[key]))) return true;
  }
  return false;
}

/** `storableText` of every string and key in a JSON-like value, at any depth; the value itself when nothing needs mending. */
export function storableValue<T>(value: T): T {
  if (!holdsUnstorable(value)) return value;
  if (typeof value === 'string') return storableText(value) as T;
  if (Array.isArray(value)) return value.map(storableValue) as T;
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [storableText(key), storableValue(item)])) as T;
}

/**
 * At most `max` UTF-16 code units of `text`, ending in "…" when cut: a cut never splits a
 * surrogate pair, which the database would refuse.
 */
export function clipText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  if (/[\ud800-\udbff]/.test(text[end - 1] ?? '')) end -= 1;
  return `${text.slice(0, end)}…`;
}
