const encodedKeys = new Map<string, string>();
/** Enough for every key this server writes; keys beyond it (from payloads) are encoded each time. */
const ENCODED_KEYS_KEPT = 10_000;

/** `"key":`, kept: the same few keys recur in every event and manifest. */
function encodedKey(key: string): string {
  let encoded = encodedKeys.get(key);
  if (encoded === undefined) {
    encoded = `${JSON.stringify(key)}:`;
    if (encodedKeys.size < ENCODED_KEYS_KEPT) encodedKeys.set(key, encoded);
  }
  return encoded;
}

/** Beyond this many keys an object's keys are sorted by `Array.prototype.sort`; below, in place. */
const KEYS_SORTED_IN_PLACE = 32;

/**
 * An object's own keys in UTF-16 code unit order, as `Object.keys(record).sort()` gives them. The
 * few keys of an event or manifest object are sorted in place by insertion: `sort` copies its
 * array to work on, and that copy was a sixth of what a continuation allocates.
 */
function sortedKeys(record: Record<string, unknown>): string[] {
  const keys = Object.keys(record);
  if (keys.length > KEYS_SORTED_IN_PLACE) return keys.sort();
  for (let index = 1; index < keys.length; index++) {
    const key = keys[index];
    let at = index;
    while (at > 0 && keys[at - 1] > key) {
      keys[at] = keys[at - 1];
      at--;
    }
    keys[at] = key;
  }
  return keys;
}

/** Encodings `keepCanonicalJson` made, by the object they encode. */
const keptEncodings = new WeakMap<object, string>();

/**
 * `canonicalJson(value)`, kept with the object for `keptCanonicalJson` and for encodings of
 * objects holding it: a hash over a manifest or an event, and the insert of its JSON columns, then
 * encode it once (canonical JSON is JSON). For objects built to be written, which do not change.
 */
export function keepCanonicalJson(value: unknown): string {
  const encoded = canonicalJson(value);
  if (typeof value === 'object' && value !== null) keptEncodings.set(value, encoded);
  return encoded;
}

/** The canonical JSON kept for `value` by `keepCanonicalJson`, if any. */
export function keptCanonicalJson(value: object): string | undefined {
  return keptEncodings.get(value);
}

/**
 * Canonical JSON: object keys sorted by UTF-16 code units, no insignificant white space,
 * strings and finite numbers as JSON.stringify writes them. Two equal values always encode
 * to the same bytes, so hashes over them can be recomputed by anyone.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError('Canonical JSON has no encoding for a non-finite number');
      return JSON.stringify(value);
    case 'object': {
      const kept = keptEncodings.get(value);
      if (kept !== undefined) return kept;
      // Built by concatenation: hashes and token counts encode every event and manifest written.
      if (Array.isArray(value)) {
        let encoded = '[';
        for (let index = 0; index < value.length; index++) encoded += (index ? ',' : '') + canonicalJson(value[index]);
        return `${encoded}]`;
      }
      const record = value as Record<string, unknown>;
      let encoded = '{';
      for (const key of sortedKeys(record)) {
        const field = record[key];
        if (field === undefined) continue;
        encoded += `${encoded.length > 1 ? ',' : ''}${encodedKey(key)}${canonicalJson(field)}`;
      }
      return `${encoded}}`;
    }
    default:
      throw new TypeError(`Canonical JSON has no encoding for ${typeof value}`);
  }
}
