/**
 * The bundle format (docs/bundle-format.md): a zip of JSON Lines files, one record a line, and the
 * bytes of attachments by cid, with a sha256 checksum list that `sha256sum -c` reads. Version 1.
 */
export const BUNDLE_FORMAT = 'session-continuation-bundle';
export const BUNDLE_VERSION = 1;
/** The most bytes a bundle or transcript sent to `POST /imports` may have by default. */
export const DEFAULT_IMPORT_MAX_BYTES = 256 * 1024 * 1024;

export const BundleFile = {
  HEADER: 'bundle.json',
  SESSIONS: 'sessions.jsonl',
  EVENTS: 'events.jsonl',
  EDGES: 'edges.jsonl',
  MANIFESTS: 'manifests.jsonl',
  PLANS: 'plans.jsonl',
  RESOURCE_VERSIONS: 'resource-versions.jsonl',
  MEMORY_ENTRIES: 'memory-entries.jsonl',
  ATTACHMENTS: 'attachments.jsonl',
  CHECKSUMS: 'checksums.sha256',
} as const;

export const ATTACHMENT_FOLDER = 'attachments/';
export const attachmentFile = (cid: string) => `${ATTACHMENT_FOLDER}${cid}`;

export const BundleScope = { SESSION: 'SESSION', LINEAGE: 'LINEAGE' } as const;
export type BundleScope = (typeof BundleScope)[keyof typeof BundleScope];

/** bundle.json: what the bundle holds and how it was made. */
export interface BundleHeader {
  format: typeof BUNDLE_FORMAT;
  version: number;
  scope: BundleScope;
  /** The session the export named. */
  rootSessionId: string;
  sessionIds: string[];
  exportedAt: string;
}

export interface BundleSession {
  id: string;
  kind: string;
  status: string;
  title: string;
  description: string | null;
  createdAt: string;
  originId: string;
  lineageDepth: number;
  continuationStreak: number;
  parentId: string | null;
  forkedFromEventId: string | null;
  continuationApproval: string;
  eventCount: number;
  tokenCount: number;
  lastEventHash: string;
  erasedAt: string | null;
}

export interface BundleEvent {
  id: string;
  sessionId: string;
  seq: number;
  kind: string;
  text: string | null;
  data: unknown;
  toolCallId: string | null;
  tokenCount: number;
  tokenTotal: number;
  hash: string;
  replayOfId: string | null;
  clientMessageId: string | null;
  createdAt: string;
  attachmentCids: string[];
  erasedAt: string | null;
}

export interface BundleEdge {
  id: string;
  predecessorId: string;
  successorId: string;
  reason: string;
  actor: string;
  initiatingEventId: string;
  createdAt: string;
}

/** A manifest's hashed content as stored, its hash, and which of its items resolve outside the bundle. */
export interface BundleManifest {
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
  items: BundleManifestItem[];
  transferredState: unknown;
  lineageBlock: string;
  context: unknown;
  compilerVersion: string;
  modelVersion: string;
  tokenBudget: number;
  tokenCost: number;
  createdAt: string;
  proposal?: unknown;
  hash: string;
  erasedAt: string | null;
  /** Indexes of the items whose source the bundle does not hold (another lineage, an erased attachment). */
  outside: number[];
}

export interface BundleManifestItem {
  kind: string;
  sessionId?: string | null;
  fromEventId?: string | null;
  toEventId?: string | null;
  eventId?: string | null;
  url?: string | null;
  version?: string | null;
  path?: string | null;
  cid?: string | null;
  handoffManifestId?: string | null;
  [key: string]: unknown;
}

export interface BundlePlanRevision {
  id: string;
  sessionId: string;
  revision: number;
  closed: boolean;
  steps: unknown[];
  createdAt: string;
  erasedAt: string | null;
}

export interface BundleResourceVersion {
  url: string;
  version: string;
  cid: string;
  blocks: unknown[];
  tokenCount: number;
  createdAt: string;
}

export interface BundleMemoryEntry {
  path: string;
  cid: string;
  content: string;
  tokenCount: number;
  createdAt: string;
}

export interface BundleAttachment {
  cid: string;
  name: string;
  mediaType: string;
  byteSize: number;
}

/** A bundle's records, read and checked. */
export interface Bundle {
  header: BundleHeader;
  sessions: BundleSession[];
  events: BundleEvent[];
  edges: BundleEdge[];
  manifests: BundleManifest[];
  plans: BundlePlanRevision[];
  resourceVersions: BundleResourceVersion[];
  memoryEntries: BundleMemoryEntry[];
  attachments: BundleAttachment[];
  /** The bytes of each attachment, by cid. */
  attachmentBytes: Map<string, Buffer>;
  /** sha256 of the checksum list: names the bundle as a whole. */
  sha256: string;
}

/** One line of the checksum list, as `sha256sum` writes it. */
export function checksumLine(sha256: string, file: string): string {
  return `${sha256}  ${file}\n`;
}

/** The checksum list's lines as file → sha256; null for a line not of that form. */
export function parseChecksums(text: string): Map<string, string> | null {
  const entries = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const match = /^([0-9a-f]{64}) {2}(.+)$/.exec(line);
    if (!match || entries.has(match[2])) return null;
    entries.set(match[2], match[1]);
  }
  return entries;
}
