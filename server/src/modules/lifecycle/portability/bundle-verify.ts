import { TranscriptCheck, Violation, edgeViolations, manifestViolations } from '../../integrity/invariants';
import type { EventKind } from '../../conversation/transcript';
import {
  ATTACHMENT_FOLDER,
  BUNDLE_VERSION,
  Bundle,
  BundleEvent,
  BundleFile,
  BundleHeader,
  BundleManifest,
  BundleManifestItem,
  parseChecksums,
} from './bundle';
import { recordProblem } from './bundle-schemas';
import { sha256 } from '../../../shared/sha256';
import { unstorableText } from '../../../shared/text';

/** Why a bundle is refused: it cannot be read, it is of a version this server does not know, or it does not verify. */
export const BundleRefusal = { DAMAGED: 'DAMAGED', UNKNOWN_VERSION: 'UNKNOWN_VERSION', NOT_VERIFYING: 'NOT_VERIFYING' } as const;
export type BundleRefusal = (typeof BundleRefusal)[keyof typeof BundleRefusal];

/** What a verified bundle holds. */
export interface BundleReport {
  sessions: number;
  events: number;
  erasedEvents: number;
  edges: number;
  manifests: number;
  erasedManifests: number;
  /** Manifest items whose source the bundle marks as outside it. */
  outsideItems: number;
  attachments: number;
}

export type BundleCheck = { ok: true; bundle: Bundle; report: BundleReport } | { ok: false; refusal: BundleRefusal; problems: string[] };

const refuse = (refusal: BundleRefusal, problems: string[]): BundleCheck => ({ ok: false, refusal, problems });
const RECORD_FILES = [
  BundleFile.SESSIONS,
  BundleFile.EVENTS,
  BundleFile.EDGES,
  BundleFile.MANIFESTS,
  BundleFile.PLANS,
  BundleFile.RESOURCE_VERSIONS,
  BundleFile.MEMORY_ENTRIES,
  BundleFile.ATTACHMENTS,
];

/**
 * Checks a bundle's files whole, needing no server: its header and version, every checksum, the
 * shape of every record, each session's hash chain and totals (erased events taken as recorded),
 * each continuation's edge with its manifest, banner, card and opening, every manifest's hash, and
 * that every manifest item resolves inside the bundle or is marked as outside it.
 */
export function verifyBundle(files: Map<string, Buffer>): BundleCheck {
  const headerBytes = files.get(BundleFile.HEADER);
  if (!headerBytes) return refuse(BundleRefusal.DAMAGED, [`The bundle has no ${BundleFile.HEADER}.`]);
  const header = parseJson(headerBytes);
  if (header === undefined || typeof header !== 'object' || header === null) return refuse(BundleRefusal.DAMAGED, [`${BundleFile.HEADER} is not a JSON object.`]);
  const version = (header as { version?: unknown }).version;
  if (version !== BUNDLE_VERSION) return refuse(BundleRefusal.UNKNOWN_VERSION, [`Bundle version ${JSON.stringify(version)} is not one this server reads (it reads version ${BUNDLE_VERSION}).`]);
  const headerProblem = recordProblem(BundleFile.HEADER, header);
  if (headerProblem) return refuse(BundleRefusal.DAMAGED, [`${BundleFile.HEADER}: ${headerProblem}.`]);
  const checksumProblems = checkChecksums(files);
  if (checksumProblems.length) return refuse(BundleRefusal.DAMAGED, checksumProblems);
  const records = new Map<string, unknown[]>();
  for (const file of RECORD_FILES) {
    const parsed = parseLines(file, files.get(file));
    if (typeof parsed === 'string') return refuse(BundleRefusal.DAMAGED, [parsed]);
    records.set(file, parsed);
  }
  const attachmentBytes = new Map<string, Buffer>();
  for (const [name, bytes] of files) if (name.startsWith(ATTACHMENT_FOLDER)) attachmentBytes.set(name.slice(ATTACHMENT_FOLDER.length), bytes);
  const bundle = {
    header: header as BundleHeader,
    sessions: records.get(BundleFile.SESSIONS),
    events: records.get(BundleFile.EVENTS),
    edges: records.get(BundleFile.EDGES),
    manifests: records.get(BundleFile.MANIFESTS),
    plans: records.get(BundleFile.PLANS),
    resourceVersions: records.get(BundleFile.RESOURCE_VERSIONS),
    memoryEntries: records.get(BundleFile.MEMORY_ENTRIES),
    attachments: records.get(BundleFile.ATTACHMENTS),
    attachmentBytes,
    sha256: sha256(files.get(BundleFile.CHECKSUMS)!),
  } as Bundle;
  const problems: string[] = [];
  const report = verifyContent(bundle, problems);
  return problems.length ? refuse(BundleRefusal.NOT_VERIFYING, problems) : { ok: true, bundle, report };
}

function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
}

function checkChecksums(files: Map<string, Buffer>): string[] {
  const list = files.get(BundleFile.CHECKSUMS);
  if (!list) return [`The bundle has no ${BundleFile.CHECKSUMS}.`];
  const sums = parseChecksums(list.toString('utf8'));
  if (!sums) return [`${BundleFile.CHECKSUMS} is not a list of "<sha256>  <file>" lines.`];
  const problems: string[] = [];
  for (const [name, bytes] of files) {
    if (name === BundleFile.CHECKSUMS) continue;
    const expected = sums.get(name);
    if (!expected) problems.push(`${name} is not in ${BundleFile.CHECKSUMS}.`);
    else if (expected !== sha256(bytes)) problems.push(`${name} does not match its checksum.`);
    if (name.startsWith(ATTACHMENT_FOLDER) && name.slice(ATTACHMENT_FOLDER.length) !== sha256(bytes)) problems.push(`${name} does not hold the bytes its cid names.`);
  }
  for (const name of sums.keys()) if (!files.has(name)) problems.push(`${name} is listed in ${BundleFile.CHECKSUMS} but missing.`);
  return problems.slice(0, 20);
}

/** A JSON Lines file's records, each checked against its schema; a string says what is wrong. */
function parseLines(file: string, bytes: Buffer | undefined): unknown[] | string {
  if (!bytes) return `The bundle has no ${file}.`;
  const records: unknown[] = [];
  const lines = bytes.toString('utf8').split('\n');
  for (const [index, line] of lines.entries()) {
    if (line === '' && index === lines.length - 1) break;
    const value = parseJson(Buffer.from(line, 'utf8'));
    if (value === undefined) return `${file} line ${index + 1} is not JSON.`;
    const problem = recordProblem(file, value);
    if (problem) return `${file} line ${index + 1}: ${problem}.`;
    if (unstorableText(value, []).length > 0) return `${file} line ${index + 1} holds text no database can store (NUL, or an unpaired surrogate).`;
    records.push(value);
  }
  return records;
}

/** Checks what the records say of each other; appends each problem found. */
function verifyContent(bundle: Bundle, problems: string[]): BundleReport {
  const note = (violations: Violation[]) => problems.push(...violations.map((violation) => `${violation.code}: ${violation.message} (${JSON.stringify(violation.ids)})`));
  const sessionIds = new Set(bundle.sessions.map((session) => session.id));
  const eventsById = new Map(bundle.events.map((event) => [event.id, event]));
  if (!sessionIds.has(bundle.header.rootSessionId)) problems.push('The header names a root session the bundle does not hold.');
  if (sessionIds.size !== bundle.sessions.length || eventsById.size !== bundle.events.length) problems.push('A session or an event appears twice.');
  const erasedEvents = checkTranscripts(bundle, note, problems);
  const manifestByEdge = new Map(bundle.manifests.map((manifest) => [manifest.edgeId, manifest]));
  const bySeq = new Map(bundle.events.map((event) => [`${event.sessionId}:${event.seq}`, event]));
  const cards = new Map(bundle.events.filter(isTransitionCard).map((event) => [`${event.sessionId}:${(event.data as { edgeId: string }).edgeId}`, event]));
  const lookups = { eventsById, eventAt: (sessionId: string, seq: number) => bySeq.get(`${sessionId}:${seq}`) ?? null, cards };
  for (const edge of bundle.edges) {
    if (!sessionIds.has(edge.predecessorId) || !sessionIds.has(edge.successorId)) problems.push(`Edge ${edge.id} joins a session the bundle does not hold.`);
    note(edgeViolations(storedEdge(edge, lookups, manifestByEdge.get(edge.id))));
  }
  const attachmentCids = new Set(bundle.attachments.map((attachment) => attachment.cid));
  for (const attachment of bundle.attachments) {
    const bytes = bundle.attachmentBytes.get(attachment.cid);
    if (!bytes || bytes.length !== attachment.byteSize) problems.push(`Attachment ${attachment.cid} has no file of ${attachment.byteSize} bytes.`);
  }
  for (const event of bundle.events) {
    for (const cid of event.attachmentCids) if (!attachmentCids.has(cid)) problems.push(`Event ${event.id} links attachment ${cid}, which the bundle does not hold.`);
  }
  let outsideItems = 0;
  const resolves = itemResolver(bundle, sessionIds, eventsById, attachmentCids);
  for (const manifest of bundle.manifests) {
    const { outside, erasedAt, ...content } = manifest;
    note(manifestViolations({ ...content, erasedAt }));
    outsideItems += outside.length;
    manifest.items.forEach((item, index) => {
      if (!outside.includes(index) && !resolves(item)) problems.push(`Item ${index} of manifest ${manifest.id} resolves neither inside the bundle nor is it marked outside.`);
    });
  }
  for (const plan of bundle.plans) if (!sessionIds.has(plan.sessionId)) problems.push(`Plan revision ${plan.id} belongs to a session the bundle does not hold.`);
  const erasedManifests = bundle.manifests.filter((manifest) => manifest.erasedAt).length;
  const counts = { sessions: bundle.sessions.length, events: bundle.events.length, edges: bundle.edges.length, manifests: bundle.manifests.length };
  problems.splice(20);
  return { ...counts, erasedEvents, erasedManifests, outsideItems, attachments: bundle.attachments.length };
}

/** Each session's events, in the order the bundle lists them, through the same chain check the server's verifier makes. */
function checkTranscripts(bundle: Bundle, note: (violations: Violation[]) => void, problems: string[]): number {
  const bySession = new Map<string, BundleEvent[]>();
  for (const event of bundle.events) {
    const events = bySession.get(event.sessionId);
    if (events) events.push(event);
    else bySession.set(event.sessionId, [event]);
  }
  let erased = 0;
  // A session bundle holds no successor: a continued session's successors are outside it.
  const successorsOutside = bundle.header.scope === 'SESSION';
  for (const session of bundle.sessions) {
    const successorCount = successorsOutside ? 1 : bundle.edges.filter((edge) => edge.predecessorId === session.id).length;
    const check = new TranscriptCheck({ ...session, successorCount });
    for (const event of bySession.get(session.id) ?? []) note(check.event(storedEvent(event)));
    note(check.finish());
    erased += check.erased;
    bySession.delete(session.id);
  }
  for (const sessionId of bySession.keys()) problems.push(`Events belong to session ${sessionId}, which the bundle does not hold.`);
  return erased;
}

function storedEvent(event: BundleEvent) {
  return { ...event, kind: event.kind as EventKind, createdAt: new Date(event.createdAt) };
}

function isTransitionCard(event: BundleEvent): boolean {
  const data = event.data as { role?: unknown; edgeId?: unknown } | null;
  return event.kind === 'CONTINUATION' && data?.role === 'transition_card' && typeof data.edgeId === 'string';
}

interface EventLookups {
  eventsById: Map<string, BundleEvent>;
  eventAt(sessionId: string, seq: number): BundleEvent | null;
  /** Transition cards by `predecessorId:edgeId`. */
  cards: Map<string, BundleEvent>;
}

function storedEdge(edge: Bundle['edges'][number], { eventsById, eventAt, cards }: EventLookups, manifest: BundleManifest | undefined) {
  const card = cards.get(`${edge.predecessorId}:${edge.id}`);
  const banner = eventAt(edge.successorId, 1);
  const opening = eventAt(edge.successorId, 2);
  const initiating = eventsById.get(edge.initiatingEventId);
  return {
    ...edge,
    manifest: manifest ? { id: manifest.id, predecessorId: manifest.predecessorId, successorId: manifest.successorId, initiatingEventId: manifest.initiatingEventId } : null,
    transitionCardId: card?.id ?? null,
    banner: banner ? { id: banner.id, kind: banner.kind, data: banner.data } : null,
    opening: opening ? { ...opening, erased: opening.erasedAt !== null } : null,
    initiatingText: initiating?.text ?? null,
    initiatingErased: initiating?.erasedAt != null,
    initiatingAttachmentCids: initiating?.attachmentCids ?? null,
  };
}

/** Whether a manifest item's source is in the bundle: its events, its resource version, its memory entry or its attachment. */
function itemResolver(bundle: Bundle, sessionIds: Set<string>, eventsById: Map<string, BundleEvent>, attachmentCids: Set<string>) {
  const versions = new Set(bundle.resourceVersions.map((version) => `${version.url}\u0000${version.version}`));
  const urls = new Set(bundle.resourceVersions.map((version) => version.url));
  const memories = new Set(bundle.memoryEntries.map((entry) => `${entry.path}\u0000${entry.cid}`));
  const manifestIds = new Set(bundle.manifests.map((manifest) => manifest.id));
  const eventIn = (id: string | null | undefined, sessionId: string) => id == null || eventsById.get(id)?.sessionId === sessionId;
  return (item: BundleManifestItem): boolean => {
    if (item.handoffManifestId && !manifestIds.has(item.handoffManifestId)) return false;
    switch (item.kind) {
      case 'SESSION_EVENTS':
      case 'SESSION_EVENT':
        return typeof item.sessionId === 'string' && sessionIds.has(item.sessionId) && [item.eventId, item.fromEventId, item.toEventId].every((id) => eventIn(id, item.sessionId!));
      case 'RESOURCE':
        return typeof item.url === 'string' && (item.version == null ? urls.has(item.url) : versions.has(`${item.url}\u0000${item.version}`));
      case 'MEMORY':
        return memories.has(`${item.path}\u0000${item.cid}`);
      case 'ATTACHMENT':
        return typeof item.cid === 'string' && attachmentCids.has(item.cid);
      default:
        return false;
    }
  };
}
