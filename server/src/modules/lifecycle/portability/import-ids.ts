const UUIDS = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/**
 * Rewrites every id a bundle names to the id its record gets in the importing account: in strings
 * (tool results, compiled contexts and lineage blocks name sessions and events in their text) and
 * at any depth of a JSON value (card data, manifest items, sources, transferred state). Ids the map
 * does not hold (of records outside the bundle) stay as they are.
 */
export class IdRewriter {
  constructor(private readonly ids: ReadonlyMap<string, string>) {}

  id(id: string): string;
  id(id: string | null | undefined): string | null;
  id(id: string | null | undefined): string | null {
    return id == null ? null : (this.ids.get(id) ?? id);
  }

  /** The new id of a record inside the bundle; null for one outside it. */
  inside(id: string | null | undefined): string | null {
    return id == null ? null : (this.ids.get(id) ?? null);
  }

  text(text: string): string;
  text(text: string | null): string | null;
  text(text: string | null): string | null {
    return text === null ? null : text.replace(UUIDS, (found) => this.ids.get(found) ?? found);
  }

  value<T>(value: T): T {
    if (typeof value === 'string') return this.text(value) as T;
    if (Array.isArray(value)) return value.map((element) => this.value(element)) as T;
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([key, element]) => [key, this.value(element)])) as T;
    }
    return value;
  }
}

/** Resource versions as the importing account numbers them: `url` and the bundle's version give the account's version. */
export type VersionMap = ReadonlyMap<string, string>;
export const versionKey = (url: string, version: string) => `${url}\u0000${version}`;

/**
 * A manifest item, a cited source or a pinned resource with its resource version renumbered as
 * the importing account holds it; anything else unchanged.
 */
export function renumberVersion<T>(reference: T, versions: VersionMap): T {
  const ref = reference as { kind?: unknown; url?: unknown; version?: unknown };
  if (ref === null || typeof ref !== 'object' || typeof ref.url !== 'string' || typeof ref.version !== 'string') return reference;
  if (ref.kind !== undefined && ref.kind !== 'RESOURCE') return reference;
  const renumbered = versions.get(versionKey(ref.url, ref.version));
  return renumbered ? { ...reference, version: renumbered } : reference;
}
