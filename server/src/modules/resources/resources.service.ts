import { DataSource, EntityManager, IsNull } from 'typeorm';
import { ErrorCode, Outcome, fail, succeed, notFound } from '../../shared/errors';
import {
  ResourceBlock,
  isStoredVersion,
  memoryCid,
  nameKey,
  renderResourceVersion,
  resourceCid,
  resourceVersionTokens,
  validatePutResource,
  validateWriteMemory,
  versionAfter,
} from './resources';
import { countTokens } from '../../shared/tokens';
import { MemoryEntryEntity } from './memory-entry.entity';
import { MemoryPathEntity } from './memory-path.entity';
import { ResourceEntity } from './resource.entity';
import { ResourceVersionEntity } from './resource-version.entity';
import { Viewer } from '../../shared/viewer';
import { newRowId } from '../../shared/ids';

export interface PutResourceInput {
  url: string;
  blocks: ResourceBlock[];
}

export interface WriteMemoryInput {
  path: string;
  content: string;
}

/** A resource source as a continuation cites it: a version (the latest when absent), or one block of it. */
export interface ResourceSourceRef {
  url: string;
  version?: string | null;
  blockId?: string | null;
}

/**
 * What a cited resource resolves to. AVAILABLE: the exact text (the block's text, or the whole
 * version as `[block <id>] <text>` lines), its tokens, and the version and its cid to pin.
 * UNAVAILABLE: the resource is revoked; `version` is the one asked for (null when none was) and
 * nothing of its content is read. NOT_FOUND: no such url, version or block in the account.
 */
export type ResolvedResourceSource =
  | {
      status: 'AVAILABLE';
      url: string;
      version: string;
      cid: string;
      blockId: string | null;
      text: string;
      tokenCount: number;
    }
  | { status: 'UNAVAILABLE'; url: string; version: string | null; blockId: string | null; reason: 'revoked' }
  | { status: 'NOT_FOUND' };

/** A memory source as a continuation cites it: an exact entry by cid, or the path's current entry. */
export interface MemorySourceRef {
  path: string;
  cid?: string | null;
}

export type ResolvedMemorySource =
  | { status: 'AVAILABLE'; path: string; cid: string; text: string; tokenCount: number }
  | { status: 'NOT_FOUND' };

function findResource(manager: EntityManager, accountId: string, url: string): Promise<ResourceEntity | null> {
  return manager.findOneBy(ResourceEntity, { accountId, urlKey: nameKey(url) });
}

/** A stored version of `resource`, revoked or not; null when `version` is not one of its versions. */
function findVersion(manager: EntityManager, resource: ResourceEntity, version: string): Promise<ResourceVersionEntity | null> {
  if (!isStoredVersion(version, resource.versionCount)) return Promise.resolve(null);
  return manager.findOneBy(ResourceVersionEntity, { accountId: resource.accountId, urlKey: resource.urlKey, version });
}

/** The entry at `path` with content id `cid`, or the entry the path names now when `cid` is absent. */
async function findMemoryEntry(
  manager: EntityManager,
  accountId: string,
  path: string,
  cid?: string | null,
): Promise<MemoryEntryEntity | null> {
  const pathKey = nameKey(path);
  if (cid != null) return manager.findOneBy(MemoryEntryEntity, { accountId, pathKey, cid });
  const current = await manager.findOneBy(MemoryPathEntity, { accountId, pathKey });
  return current ? manager.findOneBy(MemoryEntryEntity, { id: current.entryId, accountId }) : null;
}

/**
 * Resolves a cited resource inside the caller's transaction (`manager`), for the continuation
 * compiler. Without `version`, the latest version at this moment: the caller pins the version it
 * got. Never throws for a missing or revoked source; see {@link ResolvedResourceSource}.
 */
export async function resolveResourceSource(
  manager: EntityManager,
  accountId: string,
  ref: ResourceSourceRef,
): Promise<ResolvedResourceSource> {
  const resource = await findResource(manager, accountId, ref.url);
  if (!resource) return { status: 'NOT_FOUND' };
  const version = ref.version ?? String(resource.versionCount);
  if (!isStoredVersion(version, resource.versionCount)) return { status: 'NOT_FOUND' };
  const blockId = ref.blockId ?? null;
  // Revoked content is never read, not even to check that the block exists.
  if (resource.revokedAt) {
    return { status: 'UNAVAILABLE', url: resource.url, version: ref.version ?? null, blockId, reason: 'revoked' };
  }
  const stored = await manager.findOneByOrFail(ResourceVersionEntity, { accountId, urlKey: resource.urlKey, version });
  const { url, cid } = stored;
  if (blockId === null) {
    const text = renderResourceVersion(stored.blocks);
    return { status: 'AVAILABLE', url, version, cid, blockId, text, tokenCount: stored.tokenCount };
  }
  const block = stored.blocks.find((candidate) => candidate.id === blockId);
  if (!block) return { status: 'NOT_FOUND' };
  return { status: 'AVAILABLE', url, version, cid, blockId, text: block.text, tokenCount: countTokens(block.text) };
}

/**
 * Resolves a cited memory entry inside the caller's transaction (`manager`), for the continuation
 * compiler. Without `cid`, the entry the path names at this moment. Never throws for a missing source.
 */
export async function resolveMemorySource(
  manager: EntityManager,
  accountId: string,
  ref: MemorySourceRef,
): Promise<ResolvedMemorySource> {
  const entry = await findMemoryEntry(manager, accountId, ref.path, ref.cid);
  if (!entry) return { status: 'NOT_FOUND' };
  return { status: 'AVAILABLE', path: entry.path, cid: entry.cid, text: entry.content, tokenCount: entry.tokenCount };
}

/** Versioned resources and content-addressed memory of the viewer's account. */
export class ResourceService {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Stores `blocks` as the url's next immutable version ("1", "2", ...), creating the resource on
   * its first put. When the latest version already holds exactly these blocks (same cid), returns
   * it and stores nothing, so a retried put is idempotent. Fails with INVALID_INPUT for input
   * outside the documented limits or a revoked url (a revoked url takes no new versions).
   */
  async putResource(viewer: Viewer, input: PutResourceInput): Promise<Outcome<ResourceVersionEntity>> {
    const details = validatePutResource(input, ['input']);
    if (details.length > 0) return fail(ErrorCode.INVALID_INPUT, details[0].message, details);
    const blocks = input.blocks.map(({ id, text }) => ({ id, text }));
    const cid = resourceCid(blocks);
    return this.dataSource.transaction(async (manager) => {
      const resource = await this.lockResource(manager, viewer.accountId, input.url);
      if (resource.revokedAt) {
        return fail(ErrorCode.INVALID_INPUT, 'This resource was revoked and takes no new versions.', [
          { path: ['input', 'url'], message: 'The resource at this url is revoked.' },
        ]);
      }
      const latest = await findVersion(manager, resource, String(resource.versionCount));
      if (latest?.cid === cid) return succeed(latest);
      const version = manager.create(ResourceVersionEntity, {
        id: newRowId(),
        accountId: viewer.accountId,
        url: resource.url,
        urlKey: resource.urlKey,
        version: versionAfter(resource.versionCount),
        cid,
        blocks,
        tokenCount: resourceVersionTokens(blocks),
        createdAt: new Date(),
      });
      await manager.insert(ResourceVersionEntity, version);
      await manager.update(ResourceEntity, { id: resource.id }, { versionCount: resource.versionCount + 1 });
      return succeed(version);
    });
  }

  /** The url's resource row, created if missing, locked for the rest of the transaction: puts to one url queue here. */
  private async lockResource(manager: EntityManager, accountId: string, url: string): Promise<ResourceEntity> {
    const urlKey = nameKey(url);
    await manager
      .createQueryBuilder()
      .insert()
      .into(ResourceEntity)
      .values({ id: newRowId(), accountId, url, urlKey, versionCount: 0, revokedAt: null, createdAt: new Date() })
      .orIgnore()
      .execute();
    return manager
      .createQueryBuilder(ResourceEntity, 'resource')
      .setLock('pessimistic_write')
      .where('resource.accountId = :accountId AND resource.urlKey = :urlKey', { accountId, urlKey })
      .getOneOrFail();
  }

  /** The viewer's resource at `url`, revoked or not; null when there is none. */
  findResource(viewer: Viewer, url: string): Promise<ResourceEntity | null> {
    return findResource(this.dataSource.manager, viewer.accountId, url);
  }

  /** One version of the viewer's resource; null when the url, the version or access is missing (revoked). */
  async findResourceVersion(viewer: Viewer, url: string, version: string): Promise<ResourceVersionEntity | null> {
    const resource = await this.findResource(viewer, url);
    return resource && !resource.revokedAt ? findVersion(this.dataSource.manager, resource, version) : null;
  }

  /** The newest version of a resource; null once it is revoked. */
  latestVersion(resource: ResourceEntity): Promise<ResourceVersionEntity | null> {
    if (resource.revokedAt) return Promise.resolve(null);
    return findVersion(this.dataSource.manager, resource, String(resource.versionCount));
  }

  /** Every version of a resource, oldest first; none once it is revoked. */
  async versions(resource: ResourceEntity): Promise<ResourceVersionEntity[]> {
    if (resource.revokedAt) return [];
    const rows = await this.dataSource.manager.findBy(ResourceVersionEntity, {
      accountId: resource.accountId,
      urlKey: resource.urlKey,
    });
    // Versions are text, in which "10" sorts before "2".
    return rows.sort((a, b) => Number(a.version) - Number(b.version));
  }

  /**
   * Revokes the viewer's resource: its versions stay stored but are no longer readable, and a
   * continuation citing it shows an unavailable breadcrumb. Revoking again changes nothing.
   * Fails with NOT_FOUND when the viewer has no resource at `url`.
   */
  async revokeResource(viewer: Viewer, url: string): Promise<Outcome<ResourceEntity>> {
    const key = { accountId: viewer.accountId, urlKey: nameKey(url) };
    await this.dataSource.manager.update(ResourceEntity, { ...key, revokedAt: IsNull() }, { revokedAt: new Date() });
    const resource = await this.dataSource.manager.findOneBy(ResourceEntity, key);
    if (!resource) return notFound('resource', ['url']);
    return succeed(resource);
  }

  /**
   * Stores `content` under `path`, content-addressed: the same content at the same path returns the
   * entry stored the first time. Either way the path now names that entry. Fails with INVALID_INPUT
   * for input outside the documented limits.
   */
  async writeMemory(viewer: Viewer, input: WriteMemoryInput): Promise<Outcome<MemoryEntryEntity>> {
    const details = validateWriteMemory(input, ['input']);
    if (details.length > 0) return fail(ErrorCode.INVALID_INPUT, details[0].message, details);
    const { accountId } = viewer;
    const key = { accountId, pathKey: nameKey(input.path), cid: memoryCid(input.content) };
    return this.dataSource.transaction(async (manager) => {
      await manager
        .createQueryBuilder()
        .insert()
        .into(MemoryEntryEntity)
        .values({
          ...key,
          id: newRowId(),
          path: input.path,
          content: input.content,
          tokenCount: countTokens(input.content),
          createdAt: new Date(),
        })
        .orIgnore()
        .execute();
      const entry = await manager.findOneByOrFail(MemoryEntryEntity, key);
      await manager.upsert(
        MemoryPathEntity,
        { accountId, pathKey: key.pathKey, entryId: entry.id, updatedAt: new Date() },
        ['accountId', 'pathKey'],
      );
      return succeed(entry);
    });
  }

  /** The viewer's memory entry at `path`: the one with `cid`, or the one the path names now; null when there is none. */
  findMemory(viewer: Viewer, path: string, cid?: string | null): Promise<MemoryEntryEntity | null> {
    return findMemoryEntry(this.dataSource.manager, viewer.accountId, path, cid);
  }
}
