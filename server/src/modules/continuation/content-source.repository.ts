import type { EntityManager } from 'typeorm';
import { resolveMemorySource, resolveResourceSource } from '../resources/resources.service';
import { SourceInput, SourceKind } from './continuations';
import { contentItem } from './projection/manifest';
import type { ResolvedContentSource, UnavailableSource } from './projection/model';

/** A resource version or block, or a memory entry, as exactly as a manifest pins it. */
export type ContentPin = ResolvedContentSource | UnavailableSource;

/**
 * A resource or memory source pinned to the exact version or cid it resolves to now: a revoked
 * resource becomes an UNAVAILABLE breadcrumb; null when there is no such source.
 */
export async function resolveContentSource(manager: EntityManager, accountId: string, source: SourceInput): Promise<ContentPin | null> {
  if (source.kind === SourceKind.MEMORY) {
    const memory = await resolveMemorySource(manager, accountId, { path: source.path!, cid: source.cid });
    if (memory.status === 'NOT_FOUND') return null;
    const reference = { url: null, version: null, blockId: null, path: memory.path, cid: memory.cid };
    return { type: 'CONTENT', item: contentItem(SourceKind.MEMORY, source.relevance, reference, memory), text: memory.text };
  }
  const resource = await resolveResourceSource(manager, accountId, {
    url: source.url!,
    version: source.version,
    blockId: source.blockId,
  });
  if (resource.status === 'NOT_FOUND') return null;
  const reference = { url: resource.url, version: resource.version, blockId: resource.blockId, path: null };
  if (resource.status === 'UNAVAILABLE') {
    return { type: 'UNAVAILABLE', item: contentItem(SourceKind.RESOURCE, source.relevance, { ...reference, cid: null }, null) };
  }
  return {
    type: 'CONTENT',
    item: contentItem(SourceKind.RESOURCE, source.relevance, { ...reference, cid: resource.cid }, resource),
    text: resource.text,
  };
}
