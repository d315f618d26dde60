import { EntityManager } from 'typeorm';
import type { BundleAttachment, BundleEdge, BundleEvent, BundleManifest, BundleMemoryEntry, BundlePlanRevision, BundleResourceVersion, BundleSession } from './bundle';

/** Events read per statement: a bundle holds one page of them in memory at a time. */
export const EXPORT_PAGE_SIZE = 500;

const iso = (value: unknown) => (value == null ? null : new Date(value as string).toISOString());

export async function exportedSessions(manager: EntityManager, accountId: string, sessionIds: string[]): Promise<BundleSession[]> {
  const rows: Record<string, unknown>[] = await manager.query(
    `SELECT * FROM sessions WHERE account_id = $1 AND id = ANY($2::uuid[]) ORDER BY lineage_depth, created_at, id`,
    [accountId, sessionIds],
  );
  return rows.map((row) => ({
    id: row.id as string,
    kind: row.kind as string,
    status: row.status as string,
    title: row.title as string,
    description: row.description as string | null,
    createdAt: iso(row.created_at)!,
    originId: row.origin_id as string,
    lineageDepth: row.lineage_depth as number,
    continuationStreak: row.continuation_streak as number,
    parentId: row.parent_id as string | null,
    forkedFromEventId: row.forked_from_event_id as string | null,
    continuationApproval: row.continuation_approval as string,
    eventCount: row.event_count as number,
    tokenCount: row.token_count as number,
    lastEventHash: row.last_event_hash as string,
    erasedAt: iso(row.erased_at),
  }));
}

/** One session's events after `afterSeq` up to `throughSeq`, one page, in seq order. */
export async function exportedEvents(manager: EntityManager, sessionId: string, afterSeq: number, throughSeq: number): Promise<BundleEvent[]> {
  const rows: Record<string, unknown>[] = await manager.query(
    `SELECT id, session_id, seq, kind, text, data, tool_call_id, token_count, token_total, hash, replay_of_id, client_message_id, created_at, attachment_cids, erased_at
     FROM events WHERE session_id = $1 AND seq > $2 AND seq <= $3 ORDER BY seq LIMIT $4`,
    [sessionId, afterSeq, throughSeq, EXPORT_PAGE_SIZE],
  );
  return rows.map((row) => ({
    id: row.id as string,
    sessionId: row.session_id as string,
    seq: row.seq as number,
    kind: row.kind as string,
    text: row.text as string | null,
    data: row.data,
    toolCallId: row.tool_call_id as string | null,
    tokenCount: row.token_count as number,
    tokenTotal: row.token_total as number,
    hash: row.hash as string,
    replayOfId: row.replay_of_id as string | null,
    clientMessageId: row.client_message_id as string | null,
    createdAt: iso(row.created_at)!,
    attachmentCids: row.attachment_cids as string[],
    erasedAt: iso(row.erased_at),
  }));
}

/** The continuation edges between exported sessions, oldest first. */
export async function exportedEdges(manager: EntityManager, accountId: string, sessionIds: string[]): Promise<BundleEdge[]> {
  const rows: Record<string, unknown>[] = await manager.query(
    `SELECT * FROM continuation_edges WHERE account_id = $1 AND predecessor_id = ANY($2::uuid[]) AND successor_id = ANY($2::uuid[]) ORDER BY created_at, id`,
    [accountId, sessionIds],
  );
  return rows.map((row) => ({
    id: row.id as string,
    predecessorId: row.predecessor_id as string,
    successorId: row.successor_id as string,
    reason: row.reason as string,
    actor: row.actor as string,
    initiatingEventId: row.initiating_event_id as string,
    createdAt: iso(row.created_at)!,
  }));
}

/** The manifests of exported edges, without `outside` (the caller resolves it). */
export async function exportedManifests(manager: EntityManager, edgeIds: string[]): Promise<Omit<BundleManifest, 'outside'>[]> {
  const rows: Record<string, unknown>[] = await manager.query(`SELECT * FROM projection_manifests WHERE edge_id = ANY($1::uuid[]) ORDER BY created_at, id`, [edgeIds]);
  return rows.map((row) => ({
    id: row.id as string,
    edgeId: row.edge_id as string,
    predecessorId: row.predecessor_id as string,
    successorId: row.successor_id as string,
    originId: row.origin_id as string,
    initiatingEventId: row.initiating_event_id as string,
    actor: row.actor as string,
    reason: row.reason as string,
    handoff: row.handoff,
    sources: row.sources,
    items: row.items as BundleManifest['items'],
    transferredState: row.transferred_state,
    lineageBlock: row.lineage_block as string,
    context: row.context,
    compilerVersion: row.compiler_version as string,
    modelVersion: row.model_version as string,
    tokenBudget: row.token_budget as number,
    tokenCost: row.token_cost as number,
    createdAt: iso(row.created_at)!,
    ...(row.proposal != null ? { proposal: row.proposal } : {}),
    hash: row.hash as string,
    erasedAt: iso(row.erased_at),
  }));
}

export async function exportedPlans(manager: EntityManager, sessionIds: string[]): Promise<BundlePlanRevision[]> {
  const rows: Record<string, unknown>[] = await manager.query(`SELECT * FROM plan_revisions WHERE session_id = ANY($1::uuid[]) ORDER BY array_position($1::uuid[], session_id), revision`, [sessionIds]);
  return rows.map((row) => ({
    id: row.id as string,
    sessionId: row.session_id as string,
    revision: row.revision as number,
    closed: row.closed as boolean,
    steps: row.steps as unknown[],
    createdAt: iso(row.created_at)!,
    erasedAt: iso(row.erased_at),
  }));
}

/** The account's resource versions among `refs` (url, version). */
export async function exportedResourceVersions(manager: EntityManager, accountId: string, refs: { url: string; version: string }[]): Promise<BundleResourceVersion[]> {
  if (refs.length === 0) return [];
  const rows: Record<string, unknown>[] = await manager.query(
    `SELECT version.* FROM resource_versions version
     JOIN unnest($2::text[], $3::text[]) AS wanted (url, version) ON version.url = wanted.url AND version.version = wanted.version
     WHERE version.account_id = $1 ORDER BY version.url, version.version::int`,
    [accountId, refs.map((ref) => ref.url), refs.map((ref) => ref.version)],
  );
  return rows.map((row) => ({
    url: row.url as string,
    version: row.version as string,
    cid: row.cid as string,
    blocks: row.blocks as unknown[],
    tokenCount: row.token_count as number,
    createdAt: iso(row.created_at)!,
  }));
}

/** The newest version of each of the account's resources among `urls`. */
export async function newestVersions(manager: EntityManager, accountId: string, urls: string[]): Promise<{ url: string; version: string }[]> {
  if (urls.length === 0) return [];
  return manager.query(`SELECT url, version_count::text AS version FROM resources WHERE account_id = $1 AND url = ANY($2::text[]) AND version_count > 0`, [accountId, urls]);
}

/** The account's memory entries among `refs` (path, cid). */
export async function exportedMemoryEntries(manager: EntityManager, accountId: string, refs: { path: string; cid: string }[]): Promise<BundleMemoryEntry[]> {
  if (refs.length === 0) return [];
  const rows: Record<string, unknown>[] = await manager.query(
    `SELECT entry.* FROM memory_entries entry
     JOIN unnest($2::text[], $3::text[]) AS wanted (path, cid) ON entry.path = wanted.path AND entry.cid = wanted.cid
     WHERE entry.account_id = $1 ORDER BY entry.path, entry.cid`,
    [accountId, refs.map((ref) => ref.path), refs.map((ref) => ref.cid)],
  );
  return rows.map((row) => ({
    path: row.path as string,
    cid: row.cid as string,
    content: row.content as string,
    tokenCount: row.token_count as number,
    createdAt: iso(row.created_at)!,
  }));
}

/** Attachment metadata of the account among `cids`, by cid order. */
export async function exportedAttachments(manager: EntityManager, accountId: string, cids: string[]): Promise<(BundleAttachment & { storage: string; storageKey: string })[]> {
  if (cids.length === 0) return [];
  const rows: Record<string, unknown>[] = await manager.query(`SELECT * FROM attachments WHERE account_id = $1 AND cid = ANY($2::text[]) ORDER BY cid`, [accountId, cids]);
  return rows.map((row) => ({
    cid: row.cid as string,
    name: row.name as string,
    mediaType: row.media_type as string,
    byteSize: row.byte_size as number,
    storage: row.storage as string,
    storageKey: row.storage_key as string,
  }));
}
