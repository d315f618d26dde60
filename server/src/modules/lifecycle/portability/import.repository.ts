import { EntityManager } from 'typeorm';
import { nameKey } from '../../resources/resources';
import type { BundleMemoryEntry, BundleResourceVersion } from './bundle';
import { VersionMap, versionKey } from './import-ids';
import { newRowId } from '../../../shared/ids';

/**
 * Brings cited resource versions into the account: a version holding the same content (cid) is
 * used as it is; any other is appended as the url's next version (the url created when the
 * account has none). Returns how the bundle's versions are numbered in the account.
 */
export async function importResourceVersions(manager: EntityManager, accountId: string, versions: BundleResourceVersion[]): Promise<VersionMap> {
  const numbered = new Map<string, string>();
  for (const version of versions) {
    const urlKey = nameKey(version.url);
    await manager.query(
      `INSERT INTO resources (id, account_id, url, url_key, version_count, created_at) VALUES ($1, $2, $3, $4, 0, $5)
       ON CONFLICT (account_id, url_key) DO NOTHING`,
      [newRowId(), accountId, version.url, urlKey, version.createdAt],
    );
    const [resource]: { version_count: number }[] = await manager.query(`SELECT version_count FROM resources WHERE account_id = $1 AND url_key = $2 FOR UPDATE`, [accountId, urlKey]);
    const [same]: { version: string }[] = await manager.query(`SELECT version FROM resource_versions WHERE account_id = $1 AND url_key = $2 AND cid = $3 ORDER BY version::int LIMIT 1`, [
      accountId,
      urlKey,
      version.cid,
    ]);
    if (same) {
      numbered.set(versionKey(version.url, version.version), same.version);
      continue;
    }
    const next = String(resource.version_count + 1);
    await manager.query(
      `INSERT INTO resource_versions (id, account_id, url, url_key, version, cid, blocks, token_count, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9)`,
      [newRowId(), accountId, version.url, urlKey, next, version.cid, JSON.stringify(version.blocks), version.tokenCount, version.createdAt],
    );
    await manager.query(`UPDATE resources SET version_count = $3 WHERE account_id = $1 AND url_key = $2`, [accountId, urlKey, Number(next)]);
    numbered.set(versionKey(version.url, version.version), next);
  }
  return numbered;
}

/** Brings cited memory entries into the account (content-addressed: an entry held already stays); a path the account does not name yet names it. */
export async function importMemoryEntries(manager: EntityManager, accountId: string, entries: BundleMemoryEntry[]): Promise<void> {
  for (const entry of entries) {
    const pathKey = nameKey(entry.path);
    await manager.query(
      `INSERT INTO memory_entries (id, account_id, path, path_key, cid, content, token_count, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (account_id, path_key, cid) DO NOTHING`,
      [newRowId(), accountId, entry.path, pathKey, entry.cid, entry.content, entry.tokenCount, entry.createdAt],
    );
    await manager.query(
      `INSERT INTO memory_paths (account_id, path_key, entry_id, updated_at)
       SELECT $1, $2, id, $4 FROM memory_entries WHERE account_id = $1 AND path_key = $2 AND cid = $3
       ON CONFLICT (account_id, path_key) DO NOTHING`,
      [accountId, pathKey, entry.cid, entry.createdAt],
    );
  }
}

/** Of `cids`, those the account holds already: an import links them instead of storing the bytes again. */
export async function heldCids(manager: EntityManager, accountId: string, cids: string[]): Promise<Set<string>> {
  if (cids.length === 0) return new Set();
  const rows: { cid: string }[] = await manager.query(`SELECT cid FROM attachments WHERE account_id = $1 AND cid = ANY($2::text[])`, [accountId, cids]);
  return new Set(rows.map((row) => row.cid));
}
