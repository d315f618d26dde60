import { canonicalJson } from '../../../shared/canonical-json';
import { sha256 } from '../../../shared/sha256';
import { SourceKind } from '../continuations';
import { EventBounds, ManifestItem, ManifestItemOrigin, ManifestItemStatus } from './model';

/** Tokens of the events from `first` through `last` of one session, from stored running totals. */
export function rangeTokens(first: EventBounds, last: EventBounds): number {
  return last.tokenTotal - first.tokenTotal + first.tokenCount;
}

/**
 * The content hash of an event range: the chain hashes of its first and last events pin exactly
 * which events it holds, since each event's hash covers every event before it.
 */
export function rangeHash(first: EventBounds, last: EventBounds): string {
  return first.id === last.id ? last.hash : sha256(canonicalJson([first.hash, last.hash]));
}

/** The manifest item of an attachment: pinned by its cid, which is also the hash of exactly its bytes. */
export function attachmentItem(relevance: string, cid: string, origin: ManifestItemOrigin = ManifestItemOrigin.CITED): ManifestItem {
  return {
    kind: SourceKind.ATTACHMENT,
    status: ManifestItemStatus.OMITTED,
    origin,
    score: null,
    relevance,
    sessionId: null,
    fromEventId: null,
    toEventId: null,
    eventId: null,
    url: null,
    version: null,
    blockId: null,
    path: null,
    cid,
    tokenCount: 0,
    hash: cid,
    handoffManifestId: null,
  };
}

export function eventItem(
  kind: SourceKind,
  relevance: string,
  first: EventBounds,
  last: EventBounds,
  status: ManifestItemStatus,
  origin: ManifestItemOrigin = ManifestItemOrigin.CITED,
  score: number | null = null,
): ManifestItem {
  const single = kind === SourceKind.SESSION_EVENT;
  return {
    kind,
    status,
    origin,
    score,
    relevance,
    sessionId: first.sessionId,
    fromEventId: single ? null : first.id,
    toEventId: single ? null : last.id,
    eventId: single ? first.id : null,
    url: null,
    version: null,
    blockId: null,
    path: null,
    cid: null,
    tokenCount: rangeTokens(first, last),
    hash: rangeHash(first, last),
    handoffManifestId: null,
  };
}

/** The manifest item of a resource or memory source; `hash` is sha256 of exactly the text selected. */
export function contentItem(
  kind: typeof SourceKind.RESOURCE | typeof SourceKind.MEMORY,
  relevance: string,
  reference: Pick<ManifestItem, 'url' | 'version' | 'blockId' | 'path' | 'cid'>,
  content: { text: string; tokenCount: number } | null,
): ManifestItem {
  return {
    kind,
    status: content ? ManifestItemStatus.OMITTED : ManifestItemStatus.UNAVAILABLE,
    origin: ManifestItemOrigin.CITED,
    score: null,
    relevance,
    sessionId: null,
    fromEventId: null,
    toEventId: null,
    eventId: null,
    ...reference,
    tokenCount: content?.tokenCount ?? 0,
    hash: content ? sha256(content.text) : null,
    handoffManifestId: null,
  };
}

/** What a manifest's hash covers: its stored content, `createdAt` as the ISO-8601 string with milliseconds. */
export interface ManifestContent {
  id: string;
  edgeId: string;
  predecessorId: string;
  successorId: string;
  originId: string;
  initiatingEventId: string;
  actor: string;
  reason: string;
  handoff: unknown;
  sources: unknown;
  items: unknown;
  transferredState: unknown;
  lineageBlock: string;
  context: unknown;
  compilerVersion: string;
  modelVersion: string;
  tokenBudget: number;
  tokenCost: number;
  createdAt: string;
  /** The agent's draft, for a continuation approved from its proposal; absent otherwise. */
  proposal?: unknown;
}

/** sha256 over a manifest's canonical content. */
export function manifestHash(content: ManifestContent): string {
  return sha256(canonicalJson(content));
}
