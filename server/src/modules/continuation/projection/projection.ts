import { createHash } from 'node:crypto';
import { canonicalJson } from '../../../shared/canonical-json';
import { AttachmentReference } from '../../attachments/attachments';
import { Handoff, SourceInput, SourceKind, TransferredState } from '../continuations';
import { ErrorCode, Outcome, fail, succeed } from '../../../shared/errors';
import { PlanStep, renderPlan } from '../../plans/plans';
import { CountedText, countJoinedTokens, countRecurringTokens, countTokens, TOKENIZER } from '../../../shared/tokens';

/** Names the rules below; stored in every manifest so that old manifests stay explainable. */
export const COMPILER_VERSION = 'projection-compiler/3';
export const MODEL_VERSION = TOKENIZER;
export const DEFAULT_TOKEN_BUDGET = 8_000;
/** With assisted selection, the most of the optional budget one cited excerpt takes. */
export const ASSISTED_CITED_SHARE = 0.5;
/** How far back the recent exchange looks, in events before the initiating message. */
export const RECENT_EXCHANGE_EVENTS = 8;

export const ContextSectionKind = {
  SYSTEM: 'SYSTEM',
  IDENTITY: 'IDENTITY',
  STATE: 'STATE',
  LINEAGE: 'LINEAGE',
  INITIATING_MESSAGE: 'INITIATING_MESSAGE',
  HANDOFF: 'HANDOFF',
  PINNED_SOURCE: 'PINNED_SOURCE',
  RECENT_EXCHANGE: 'RECENT_EXCHANGE',
  EXCERPT: 'EXCERPT',
  OMITTED_HANDLES: 'OMITTED_HANDLES',
} as const;
export type ContextSectionKind = (typeof ContextSectionKind)[keyof typeof ContextSectionKind];

export const ManifestItemStatus = { INCLUDED: 'INCLUDED', OMITTED: 'OMITTED', UNAVAILABLE: 'UNAVAILABLE' } as const;
export type ManifestItemStatus = (typeof ManifestItemStatus)[keyof typeof ManifestItemStatus];

/** Who selected an item: the caller's sources, the runtime, or assisted selection. */
export const ManifestItemOrigin = { CITED: 'CITED', RUNTIME: 'RUNTIME', RECOMMENDED: 'RECOMMENDED' } as const;
export type ManifestItemOrigin = (typeof ManifestItemOrigin)[keyof typeof ManifestItemOrigin];

export interface ManifestItem {
  kind: SourceKind;
  status: ManifestItemStatus;
  /** Absent from manifests stored before origins were recorded; see `itemOrigin`. */
  origin?: ManifestItemOrigin;
  /** Assisted selection's relevance score, for a RECOMMENDED item. */
  score?: number | null;
  relevance: string;
  sessionId: string | null;
  fromEventId: string | null;
  toEventId: string | null;
  eventId: string | null;
  url: string | null;
  version: string | null;
  blockId: string | null;
  path: string | null;
  cid: string | null;
  /**
   * Stored tokens of what the item adds: for included events, those no earlier section shows; for
   * a source left out, what a recall of it reads; for resource or memory content, its whole text.
   */
  tokenCount: number;
  /** Content hash of exactly what was selected. */
  hash: string | null;
  /**
   * When the cited events open a successor (its banner introduces a handoff): the manifest of
   * that handoff, so that a chain of continuations leads back to exact sources, not to prose.
   */
  handoffManifestId: string | null;
}

export interface CompiledSection {
  kind: ContextSectionKind;
  text: string;
  tokenCount: number;
}

/** An event as the compiler sees it; `tokenTotal` is the session's running token count through it. */
export interface ProjectedEvent {
  id: string;
  sessionId: string;
  seq: number;
  kind: string;
  text: string | null;
  data: unknown;
  tokenCount: number;
  tokenTotal: number;
  hash: string;
  /** Cids of the attachments a message links, in order. */
  attachmentCids?: string[];
}

/** What an event source's manifest item needs of its first and last events. */
export type EventBounds = Pick<ProjectedEvent, 'id' | 'sessionId' | 'seq' | 'tokenCount' | 'tokenTotal' | 'hash'>;

/** A range assisted selection recommends for the handoff's purpose, with its score and the reason a person reads. */
export interface RecommendedRange {
  type: 'EVENTS';
  first: EventBounds;
  last: EventBounds;
  score: number;
  reason: string;
}

/** A resource block or memory entry assisted selection recommends, resolved exactly as a cited one is. */
export interface RecommendedContent {
  type: 'CONTENT';
  source: ResolvedContentSource;
  score: number;
  reason: string;
}

/** The origin of a stored item: as recorded, or for a manifest stored before origins were, as the runtime's relevance names it. */
export function itemOrigin(item: ManifestItem): ManifestItemOrigin {
  if (item.origin) return item.origin;
  const byRuntime = item.relevance === INITIATING_RELEVANCE || item.relevance === RECENT_RELEVANCE;
  return byRuntime ? ManifestItemOrigin.RUNTIME : ManifestItemOrigin.CITED;
}

const INITIATING_RELEVANCE = 'the initiating user message';
const INITIATING_ATTACHMENT_RELEVANCE = 'attached to the initiating user message';
const RECENT_RELEVANCE = 'recent exchange before the initiating message';

/** An inclusive range of one session's events. */
export interface EventRange {
  sessionId: string;
  fromSeq: number;
  toSeq: number;
}

/** A range to read, perhaps only as much of its end as could fit a budget. */
export interface EventRangeRead extends EventRange {
  /**
   * When set, only the range's longest end whose stored tokens sum to at most this, preceded by
   * the event before it when the range holds one (the last event of the part left out).
   */
  withinTokens?: number;
}

/** Where the compiler reads exact sources. Implementations read only what they are asked for. */
export interface ProjectionSourceReader {
  /** The events of each read, oldest first, aligned with `reads`: one round trip for all. */
  eventsInRanges(reads: EventRangeRead[]): Promise<ProjectedEvent[][]>;
}

/**
 * The seq a read starts at, found by walking back from the range's end over `eventAt`: the
 * range's first seq, or for a bounded read the first event whose running total reaches the end's
 * total less `withinTokens`. Null when `eventAt` lacks an event the walk needs.
 */
export function readStart(read: EventRangeRead, eventAt: (seq: number) => ProjectedEvent | undefined): number | null {
  const last = eventAt(read.toSeq);
  if (!last) return null;
  const reached = read.withinTokens === undefined ? -Infinity : last.tokenTotal - read.withinTokens;
  for (let seq = read.toSeq, event: ProjectedEvent | undefined = last; event; event = eventAt(--seq)) {
    // The running total before an event is its own total less its own count.
    if (seq <= read.fromSeq || event.tokenTotal - event.tokenCount < reached) return seq;
  }
  return null;
}

/** A cited event source whose boundary events were found. */
export interface ResolvedEventSource {
  type: 'EVENTS';
  input: SourceInput;
  first: ProjectedEvent;
  last: ProjectedEvent;
  /** Set when the range starts at a successor's banner: the manifest behind that handoff. */
  handoffManifestId: string | null;
}

/** A resource version (or one block of it) or a memory entry, pinned exactly, with its text. */
export interface ResolvedContentSource {
  type: 'CONTENT';
  item: ManifestItem;
  text: string;
}

/** A source that exists but may no longer be read (a revoked resource): a broken breadcrumb, never substituted. */
export interface UnavailableSource {
  type: 'UNAVAILABLE';
  item: ManifestItem;
}

/**
 * An attachment, pinned by its cid: carried as a reference (name, media type, size), its bytes
 * never; a text attachment's content, when it was read, as an excerpt if it fits.
 */
export interface ResolvedAttachmentSource {
  type: 'ATTACHMENT';
  item: ManifestItem;
  reference: AttachmentReference;
  /** The content of a text attachment small enough to have been read; null otherwise. */
  excerpt: string | null;
}

export type ResolvedSource = ResolvedEventSource | ResolvedContentSource | UnavailableSource | ResolvedAttachmentSource;

export interface ProjectionRequest {
  tokenBudget: number;
  identity: { accountId: string; accountName: string; grants: string[]; tools: string[] };
  transferred: TransferredState;
  /** The plan a CARRY transfer moves, shown step by step. */
  carriedPlan: { revision: number; closed: boolean; steps: PlanStep[] } | null;
  lineageBlock: string;
  manifestId: string;
  /** The message the successor answers, rendered exactly with its event id. */
  initiatingEvent: ProjectedEvent;
  /** The attachments the initiating message links, in order: the successor's replayed message links the same. */
  initiatingAttachments?: AttachmentReference[];
  /** The recent exchange is read from this session, before this seq. */
  recentBefore: { sessionId: string; seq: number };
  handoff: Handoff;
  /** Pinned resources, loaded right after the handoff. */
  pins: (ResolvedContentSource | UnavailableSource)[];
  /** Cited sources, most relevant first. */
  sources: ResolvedSource[];
  /** What assisted selection recommends, best first: it fills what the budget has left after everything else. */
  recommended?: (RecommendedRange | RecommendedContent)[];
  /**
   * Added to the minimum budget a refusal advises, for a caller whose next attempt renders
   * differently (new ids in the lineage block tokenize to slightly different lengths).
   */
  minimumAllowance?: number;
}

export interface Projection {
  sections: CompiledSection[];
  items: ManifestItem[];
  /** The items of each cited source, aligned with the request's sources: two for a range split by the budget. */
  citedItems: ManifestItem[][];
  /** Tokens of the compiled context: the sections joined by blank lines. */
  tokenCost: number;
}

const SECTION_SEPARATOR = '\n\n';
/** Sections whose text repeats from one continuation to the next: control, an account's identity, a state carrying nothing. */
const RECURRING_SECTIONS = new Set<ContextSectionKind>([ContextSectionKind.SYSTEM, ContextSectionKind.IDENTITY, ContextSectionKind.STATE]);

const SYSTEM_TEXT = [
  'You are continuing work that began in an earlier session. That session is complete and unchanged;',
  'this context is a projection of it, not its history. The lineage block is written by the runtime and',
  'is authoritative; the handoff was written by the agent and is orientation, not a record. When the',
  'handoff and an exact source disagree, the source wins. Sources listed as omitted were left out only for',
  'the token budget: recall them exactly (read_events, read_manifest, walk_lineage) instead of guessing.',
  'Answer the initiating message here.',
].join(' ');

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

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

function renderEvent(event: ProjectedEvent): string {
  const payload = event.data == null ? '' : ` ${canonicalJson(event.data)}`;
  const attached = event.attachmentCids?.length ? ` [attachments: ${event.attachmentCids.join(', ')}]` : '';
  return `[event ${event.id} seq ${event.seq} ${event.kind}]${event.text == null ? '' : ` ${event.text}`}${payload}${attached}`;
}

const quoted = (text: string) => text.replace(/"/g, "'");

/** An attachment as a context shows it: a reference, with the content of a text attachment when given. */
function renderAttachment(reference: AttachmentReference, relevance: string | null, excerpt: string | null): string {
  const open =
    `<attachment cid="${reference.cid}" name="${quoted(reference.name)}" type="${reference.mediaType}" bytes="${reference.byteSize}"` +
    (relevance === null ? '' : ` relevance="${quoted(relevance)}"`);
  return excerpt === null ? `${open} />` : `${open}>\n${excerpt}\n</attachment>`;
}

/** The initiating message exactly, and a reference to each attachment it links (their bytes are never pasted). */
function renderInitiating(event: ProjectedEvent, attachments: AttachmentReference[]): string {
  if (attachments.length === 0) return renderEvent(event);
  const line = renderEvent({ ...event, attachmentCids: [] });
  return [line, ...attachments.map((attachment) => renderAttachment(attachment, null, null))].join('\n');
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

function renderIdentity(identity: ProjectionRequest['identity']): string {
  return [
    `account: ${identity.accountName} (${identity.accountId})`,
    `grants: ${identity.grants.join('; ')}`,
    `tools: ${identity.tools.join(', ')}`,
  ].join('\n');
}

function renderState(state: TransferredState, carriedPlan: ProjectionRequest['carriedPlan']): string {
  const pins = state.pinnedResources.map((ref) => `${ref.url}@${ref.version ?? 'latest'}${ref.blockId ? `#${ref.blockId}` : ''}`);
  return [
    carriedPlan
      ? `plan: CARRY from predecessor ${renderPlan(carriedPlan.revision, carriedPlan.closed, carriedPlan.steps)}`
      : `plan: ${state.plan}${state.planRevision == null ? '' : ` (revision ${state.planRevision})`}`,
    `pending runs: ${state.pendingRunIds.length ? state.pendingRunIds.join(', ') : 'none'}`,
    `pinned tools: ${state.pinnedTools.length ? state.pinnedTools.join(', ') : 'none'}`,
    `pinned resources: ${pins.length ? pins.join(', ') : 'none'}`,
  ].join('\n');
}

/** The handoff as the successor reads it. */
export function renderHandoff(handoff: Handoff): string {
  const list = (title: string, items: string[]) => (items.length ? [`${title}:`, ...items.map((item) => `- ${item}`)] : []);
  return [
    `Purpose: ${handoff.purpose}`,
    `Current request: ${handoff.currentRequest}`,
    ...list('Established facts', handoff.establishedFacts),
    ...list('Decisions', handoff.decisions),
    ...list('Open questions', handoff.openQuestions),
    ...list('Next actions', handoff.nextActions),
    ...list('Cautions', handoff.cautions),
  ].join('\n');
}

function eventItem(
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

function handleLine(item: ManifestItem): string {
  const where: Record<SourceKind, string> = {
    SESSION_EVENT: `session ${item.sessionId} event ${item.eventId}, ${item.tokenCount} tokens (read_events)`,
    SESSION_EVENTS: `session ${item.sessionId} events ${item.fromEventId}..${item.toEventId}, ${item.tokenCount} tokens (read_events)`,
    RESOURCE: `resource ${item.url} version ${item.version ?? 'unknown'}${item.blockId ? ` block ${item.blockId}` : ''}, ${item.tokenCount} tokens (read_resource)`,
    MEMORY: `memory ${item.path} cid ${item.cid}, ${item.tokenCount} tokens (read_memory)`,
    ATTACHMENT: `attachment cid ${item.cid} (read_attachment)`,
  };
  const line = `- ${where[item.kind]}: ${item.relevance}`;
  return item.status === ManifestItemStatus.UNAVAILABLE ? `- unavailable (revoked, not substituted): ${line.slice(2)}` : line;
}

function renderContent(item: ManifestItem, text: string): string {
  const relevance = item.relevance.replace(/"/g, "'");
  const open =
    item.kind === SourceKind.MEMORY
      ? `<memory path="${item.path}" cid="${item.cid}" relevance="${relevance}">`
      : `<resource url="${item.url}" version="${item.version}"${item.blockId ? ` block="${item.blockId}"` : ''} relevance="${relevance}">`;
  return `${open}\n${text}\n</${item.kind === SourceKind.MEMORY ? 'memory' : 'resource'}>`;
}

/** What a candidate puts in the context, and the manifest items it leaves. */
interface Placement {
  text: CountedText;
  /** In the order of the range they cover: the part left out first. */
  items: ManifestItem[];
  /** Recall lines for the parts it leaves out. */
  handles: CountedText[];
  /**
   * What it shows for the first time (event ids, or the content keys of resources and memory),
   * and how a later excerpt names where they are.
   */
  shows: { ids: string[]; where: string } | null;
}

/** One optional piece of context, in priority order. */
interface Candidate {
  section: ContextSectionKind;
  /** A recommendation: carried only when it fits and shows something new, and never listed when it does not. */
  recommended?: boolean;
  /** Its manifest item when left out whole; null for the handoff, which the manifest holds anyway. */
  omitted: ManifestItem | null;
  handle: string;
  /**
   * Renders it, or the part of it that fits, given the events the context shows already and a
   * test of a cost (its text and the handles of what it leaves out, a line break each); null when
   * nothing fits.
   */
  place(fits: (tokens: number) => boolean, shown: ReadonlyMap<string, string>): Placement | null;
}

function counted(text: string): CountedText {
  return { text, tokens: countTokens(text) };
}

function placementCost(placement: Placement): number {
  return placement.handles.reduce((sum, handle) => sum + handle.tokens + 1, placement.text.tokens + 1);
}

/**
 * Compiles the successor's initial context within `tokenBudget`, in the specification's order:
 * control, identity, state, lineage and the initiating message (never dropped), then the handoff,
 * pinned sources, the recent exchange and the cited excerpts while they fit, then one handle per
 * source (or part of a range) left out. An event is shown once: a later range names the section
 * that shows it instead. A range that does not fit whole keeps its end, the events nearest the
 * initiating message, and leaves out its start as an item of its own.
 * Reads only what may fit, so its cost follows the budget, not the history.
 * Fails with INVALID_INPUT when the never-dropped sections alone exceed the budget.
 */
export async function compileProjection(
  request: ProjectionRequest,
  reader: ProjectionSourceReader,
): Promise<Outcome<Projection>> {
  const initiating = request.initiatingEvent;
  const fixed: CompiledSection[] = [
    { kind: ContextSectionKind.SYSTEM, text: SYSTEM_TEXT, tokenCount: 0 },
    { kind: ContextSectionKind.IDENTITY, text: renderIdentity(request.identity), tokenCount: 0 },
    { kind: ContextSectionKind.STATE, text: renderState(request.transferred, request.carriedPlan), tokenCount: 0 },
    { kind: ContextSectionKind.LINEAGE, text: request.lineageBlock, tokenCount: 0 },
    { kind: ContextSectionKind.INITIATING_MESSAGE, text: renderInitiating(initiating, request.initiatingAttachments ?? []), tokenCount: 0 },
  ].map((section) => ({
    ...section,
    tokenCount: RECURRING_SECTIONS.has(section.kind) ? countRecurringTokens(section.text) : countTokens(section.text),
  }));
  const separatorTokens = countTokens(SECTION_SEPARATOR);
  const summary = counted(`- more omitted sources: read_manifest ${request.manifestId}`);

  const candidates = await collectCandidates(request, reader);
  const fixedTokens = fixed.reduce((sum, section) => sum + section.tokenCount + separatorTokens, 0);
  const minimum = fixedTokens + (candidates.length ? summary.tokens + separatorTokens : 0);
  if (minimum > request.tokenBudget) {
    const advised = minimum + (request.minimumAllowance ?? 0);
    return fail(
      ErrorCode.INVALID_INPUT,
      `tokenBudget ${request.tokenBudget} is below the ${advised} tokens this continuation needs at least (control, identity, state, lineage and the initiating message).`,
      [{ path: ['input', 'tokenBudget'], message: `Must be at least ${advised}.` }],
    );
  }

  const placed = new Map<Candidate, Placement>();
  const handles = new Map<Candidate, CountedText>();
  // A handle is counted only when it matters: when it is listed, or when the budget is too tight for its bound.
  const handleOf = (candidate: Candidate): CountedText => {
    let handle = handles.get(candidate);
    if (!handle) {
      handle = counted(candidate.handle);
      handles.set(candidate, handle);
    }
    return handle;
  };
  const assemble = () => assembleContext(fixed, candidates, placed, handleOf, summary, request.tokenBudget - fixedTokens);
  let remaining = request.tokenBudget - minimum;
  // Room is kept for the handle (and its line break) of every candidate still to decide. A token
  // is at least a byte, so a handle's UTF-8 length bounds its count: a candidate that fits with
  // every later handle at its bound fits with their exact counts too, which are taken otherwise.
  // A recommendation left out is not listed, so it needs no room.
  const handleBounds = candidates.map((candidate) => (candidate.recommended ? 0 : Buffer.byteLength(candidate.handle, 'utf8') + 1));
  let boundsAfter = handleBounds.reduce((sum, bound) => sum + bound, 0);
  const fitsWithLaterHandles = (tokens: number, index: number) =>
    tokens <= remaining - boundsAfter ||
    tokens <=
      remaining -
        candidates.slice(index + 1).reduce((sum, later) => (later.recommended ? sum : sum + handleOf(later).tokens + 1), 0);
  const shown = new Map<string, string>([[initiating.id, 'the initiating message']]);
  // With recommendations, one cited excerpt may not take the whole budget: a longer one keeps the
  // end that fits its share, and the recommendations fill what is left.
  const citedShare = candidates.some((candidate) => candidate.recommended)
    ? Math.floor(ASSISTED_CITED_SHARE * (request.tokenBudget - minimum))
    : Infinity;
  for (const [index, candidate] of candidates.entries()) {
    boundsAfter -= handleBounds[index];
    const share = candidate.section === ContextSectionKind.EXCERPT && !candidate.recommended ? citedShare : Infinity;
    const placement = candidate.place((tokens) => tokens <= share && fitsWithLaterHandles(tokens, index), shown);
    if (!placement || (candidate.recommended && !placement.shows?.ids.length)) continue;
    placed.set(candidate, placement);
    remaining -= placementCost(placement);
    const shows = placement.shows;
    if (shows) for (const id of shows.ids) shown.set(id, shows.where);
  }

  // Joining texts can merge tokens at the seams; verify the real count and shed from the end, which
  // no earlier section refers to.
  const contextTokens = (compiled: CompiledSection[]) =>
    countJoinedTokens(compiled.map((section) => ({ text: section.text, tokens: section.tokenCount })), SECTION_SEPARATOR);
  let sections = assemble();
  let tokenCost = contextTokens(sections);
  while (tokenCost > request.tokenBudget && placed.size > 0) {
    placed.delete([...placed.keys()].pop() as Candidate);
    sections = assemble();
    tokenCost = contextTokens(sections);
  }

  const itemsOf = (candidate: Candidate) =>
    placed.get(candidate)?.items ?? (candidate.omitted && !candidate.recommended ? [candidate.omitted] : []);
  const items: ManifestItem[] = [
    eventItem(SourceKind.SESSION_EVENT, INITIATING_RELEVANCE, initiating, initiating, ManifestItemStatus.INCLUDED, ManifestItemOrigin.RUNTIME),
    // Shown with the initiating message, so never dropped: their tokens are that section's.
    ...(request.initiatingAttachments ?? []).map((attachment) => ({
      ...attachmentItem(INITIATING_ATTACHMENT_RELEVANCE, attachment.cid, ManifestItemOrigin.RUNTIME),
      status: ManifestItemStatus.INCLUDED,
    })),
    ...candidates.flatMap(itemsOf),
  ];
  const runtimeAndCited = candidates.filter((candidate) => !candidate.recommended);
  const citedItems = runtimeAndCited.slice(runtimeAndCited.length - request.sources.length).map(itemsOf);
  return succeed({ sections, items, citedItems, tokenCost });
}

async function collectCandidates(request: ProjectionRequest, reader: ProjectionSourceReader): Promise<Candidate[]> {
  // One read for the recent exchange (a few events, whole) and the end of every cited range that
  // could fit the budget on its own; a range whose last event alone exceeds it is not read.
  const budget = request.tokenBudget;
  const { sessionId, seq } = request.recentBefore;
  const recentRead: EventRangeRead | null =
    seq > 1 ? { sessionId, fromSeq: Math.max(1, seq - RECENT_EXCHANGE_EVENTS), toSeq: seq - 1 } : null;
  const citedReads = request.sources.map((source): EventRangeRead | null =>
    source.type === 'EVENTS' && source.last.tokenCount <= budget
      ? { sessionId: source.first.sessionId, fromSeq: source.first.seq, toSeq: source.last.seq, withinTokens: budget }
      : null,
  );
  const recommended = request.recommended ?? [];
  const recommendedReads = recommended.map((range): EventRangeRead | null =>
    range.type === 'EVENTS' && range.last.tokenCount <= budget
      ? { sessionId: range.first.sessionId, fromSeq: range.first.seq, toSeq: range.last.seq, withinTokens: budget }
      : null,
  );
  const reads = [recentRead, ...citedReads, ...recommendedReads].filter((read): read is EventRangeRead => read !== null);
  const fetched = reads.length ? await reader.eventsInRanges(reads) : [];
  const eventsOf = (read: EventRangeRead | null) => (read ? fetched[reads.indexOf(read)] : null);

  const handoffText = renderHandoff(request.handoff);
  let handoff: CountedText | null = null;
  const candidates: Candidate[] = [
    {
      section: ContextSectionKind.HANDOFF,
      omitted: null,
      handle: `- the handoff: read_manifest ${request.manifestId}`,
      place: (fits) => {
        handoff ??= counted(handoffText);
        return fits(handoff.tokens + 1) ? { text: handoff, items: [], handles: [], shows: null } : null;
      },
    },
    ...request.pins.map((pin) => sourceCandidate(ContextSectionKind.PINNED_SOURCE, pin, null, budget)),
  ];

  const recent = eventsOf(recentRead) ?? [];
  if (recent.length > 0) {
    candidates.push(
      eventsCandidate(
        ContextSectionKind.RECENT_EXCHANGE,
        'recent_exchange',
        {
          kind: SourceKind.SESSION_EVENTS,
          relevance: RECENT_RELEVANCE,
          first: recent[0],
          last: recent[recent.length - 1],
          handoffManifestId: null,
          origin: ManifestItemOrigin.RUNTIME,
          score: null,
        },
        { events: recent, whole: true },
        () => 'the recent exchange',
      ),
    );
  }
  candidates.push(
    ...request.sources.map((source, index) => sourceCandidate(ContextSectionKind.EXCERPT, source, eventsOf(citedReads[index]), budget)),
  );
  candidates.push(
    ...recommended.map((range, index): Candidate => {
      if (range.type === 'CONTENT') {
        const item = { ...range.source.item, relevance: range.reason, origin: ManifestItemOrigin.RECOMMENDED, score: range.score };
        const content = contentCandidate(ContextSectionKind.EXCERPT, { ...range.source, item });
        // Content the context shows already (pinned or cited) is not recommended again.
        const { own, holder } = contentKeys(item);
        const place: Candidate['place'] = (fits, shown) => (shown.has(own) || (holder !== null && shown.has(holder)) ? null : content.place(fits, shown));
        return { ...content, place, recommended: true };
      }
      const source = {
        kind: range.first.id === range.last.id ? SourceKind.SESSION_EVENT : SourceKind.SESSION_EVENTS,
        relevance: range.reason,
        first: range.first,
        last: range.last,
        handoffManifestId: null,
        origin: ManifestItemOrigin.RECOMMENDED,
        score: range.score,
      };
      const events = eventsOf(recommendedReads[index]);
      const read = events?.length ? { events, whole: rangeTokens(range.first, range.last) <= budget } : null;
      return { ...eventsCandidate(ContextSectionKind.EXCERPT, 'excerpt', source, read, (from, to) => `the excerpt of ${seqSpan(from, to)}`), recommended: true };
    }),
  );
  return candidates;
}

function sourceCandidate(
  section: ContextSectionKind,
  source: ResolvedSource,
  events: ProjectedEvent[] | null,
  budget: number,
): Candidate {
  switch (source.type) {
    case 'EVENTS': {
      const range = {
        kind: source.input.kind,
        relevance: source.input.relevance,
        first: source.first,
        last: source.last,
        handoffManifestId: source.handoffManifestId,
        origin: ManifestItemOrigin.CITED,
        score: null,
      };
      const read = events?.length ? { events, whole: rangeTokens(source.first, source.last) <= budget } : null;
      return eventsCandidate(section, 'excerpt', range, read, (from, to) => `the excerpt of ${seqSpan(from, to)}`);
    }
    case 'CONTENT':
      return contentCandidate(section, source);
    case 'ATTACHMENT': {
      const reference = counted(renderAttachment(source.reference, source.item.relevance, null));
      const item = { ...source.item, status: ManifestItemStatus.OMITTED, tokenCount: reference.tokens };
      return {
        section,
        omitted: item,
        handle: handleLine(item),
        place: (fits) => {
          // The content rides along only where it fits whole; the reference alone otherwise.
          const withExcerpt =
            source.excerpt !== null && fits(countTokens(source.excerpt)) ? counted(renderAttachment(source.reference, source.item.relevance, source.excerpt)) : null;
          const text = withExcerpt && fits(withExcerpt.tokens + 1) ? withExcerpt : reference;
          if (!fits(text.tokens + 1)) return null;
          return { text, items: [{ ...item, status: ManifestItemStatus.INCLUDED, tokenCount: text.tokens }], handles: [], shows: null };
        },
      };
    }
    case 'UNAVAILABLE': {
      const item = { ...source.item, status: ManifestItemStatus.UNAVAILABLE };
      // A broken breadcrumb: never placed, always listed among the handles.
      return { section, omitted: item, handle: handleLine(item), place: () => null };
    }
  }
}

/**
 * The key a resource block or memory entry is shown under, and the key of what holds it when that
 * is shown whole (a block's version): content shown once is not shown again.
 */
function contentKeys(item: ManifestItem): { own: string; holder: string | null } {
  if (item.kind === SourceKind.MEMORY) return { own: `memory ${item.path} ${item.cid}`, holder: null };
  const version = `resource ${item.url} ${item.version}`;
  return item.blockId ? { own: `${version} block ${item.blockId}`, holder: version } : { own: version, holder: null };
}

/** A resource version or block, or a memory entry: placed whole when it fits, never in part. */
function contentCandidate(section: ContextSectionKind, source: ResolvedContentSource): Candidate {
  const item = { ...source.item, status: ManifestItemStatus.OMITTED };
  const shows = { ids: [contentKeys(item).own], where: 'above' };
  return {
    section,
    omitted: item,
    handle: handleLine(item),
    place: (fits) => {
      // The stored count is a lower bound of the rendered text: skip counting what cannot fit.
      if (!fits(item.tokenCount + 1)) return null;
      const text = counted(renderContent(item, source.text));
      const items = [{ ...item, status: ManifestItemStatus.INCLUDED }];
      return fits(text.tokens + 1) ? { text, items, handles: [], shows } : null;
    },
  };
}

/** A cited, recent or recommended range of one session's events, as its manifest items describe it. */
interface EventSource {
  kind: SourceKind;
  relevance: string;
  first: EventBounds;
  last: EventBounds;
  handoffManifestId: string | null;
  origin: ManifestItemOrigin;
  score: number | null;
}

/** The item of the part of `source` from `first` to `last`. */
function sourceItem(source: EventSource, first: EventBounds, last: EventBounds, status: ManifestItemStatus): ManifestItem {
  return {
    ...eventItem(source.kind, source.relevance, first, last, status, source.origin, source.score),
    handoffManifestId: source.handoffManifestId,
  };
}

/** A run of a range's events: one event to show, or events shown already in one place. */
interface EventRun {
  /** Index of its first event among the events read. */
  from: number;
  line: CountedText;
  /** Whether it shows its event for the first time. */
  fresh: boolean;
}

function seqSpan(from: EventBounds, to: EventBounds): string {
  return from.seq === to.seq ? `seq ${from.seq}` : `seq ${from.seq}-${to.seq}`;
}

/** The events of `events` from `start` on, as lines: each new event, and one line per run of events shown in one place. */
function eventRuns(events: ProjectedEvent[], start: number, shown: ReadonlyMap<string, string>): EventRun[] {
  const runs: EventRun[] = [];
  for (let index = start; index < events.length; index++) {
    const where = shown.get(events[index].id);
    if (where === undefined) {
      runs.push({ from: index, line: counted(renderEvent(events[index])), fresh: true });
      continue;
    }
    let to = index;
    while (to + 1 < events.length && shown.get(events[to + 1].id) === where) to++;
    const line = `event${to > index ? 's' : ''} ${seqSpan(events[index], events[to])}: see ${where} above`;
    runs.push({ from: index, line: counted(line), fresh: false });
    index = to;
  }
  return runs;
}

/**
 * A range of events as a candidate. `read` holds the whole range, or (when it is larger than the
 * budget) the end that could fit preceded by the event before it; null when nothing could fit.
 */
function eventsCandidate(
  section: ContextSectionKind,
  tag: string,
  source: EventSource,
  read: { events: ProjectedEvent[]; whole: boolean } | null,
  whereOf: (from: EventBounds, to: EventBounds) => string,
): Candidate {
  const omitted = sourceItem(source, source.first, source.last, ManifestItemStatus.OMITTED);
  return {
    section,
    omitted,
    handle: handleLine(omitted),
    place: (fits, shown) => (read ? placeEvents(tag, source, read.events, read.whole ? 0 : 1, fits, shown, whereOf) : null),
  };
}

/**
 * The longest end of the range that fits, from the runs starting at `start` on: the whole range
 * when it was read whole and fits, else its start is left out as an item with its own handle.
 */
function placeEvents(
  tag: string,
  source: EventSource,
  events: ProjectedEvent[],
  start: number,
  fits: (tokens: number) => boolean,
  shown: ReadonlyMap<string, string>,
  whereOf: (from: EventBounds, to: EventBounds) => string,
): Placement | null {
  const runs = eventRuns(events, start, shown);
  const relevance = source.relevance.replace(/"/g, "'");
  const openTag = (from: ProjectedEvent) =>
    `<${tag} session="${from.sessionId}" from="${from.id}" to="${source.last.id}" relevance="${relevance}">`;
  const close = counted(`</${tag}>`);
  // Lines of the runs from each one to the end, with a line break each.
  const linesFrom: number[] = new Array(runs.length + 1).fill(close.tokens);
  for (let index = runs.length - 1; index >= 0; index--) linesFrom[index] = linesFrom[index + 1] + runs[index].line.tokens + 1;
  for (const [index, run] of runs.entries()) {
    const from = events[run.from];
    const head =
      run.from === 0
        ? null
        : sourceItem(source, source.first, events[run.from - 1], ManifestItemStatus.OMITTED);
    if (!fits(linesFrom[index])) continue;
    const handle = head ? counted(handleLine(head)) : null;
    const handleCost = handle ? handle.tokens + 1 : 0;
    if (!fits(countTokens(openTag(from)) + linesFrom[index] + 1 + handleCost)) continue;
    const text = counted([openTag(from), ...runs.slice(index).map((later) => later.line.text), close.text].join('\n'));
    if (!fits(text.tokens + 1 + handleCost)) continue;
    const fresh = runs.slice(index).flatMap((later) => (later.fresh ? [events[later.from]] : []));
    const part = {
      ...sourceItem(source, from, source.last, ManifestItemStatus.INCLUDED),
      tokenCount: fresh.reduce((sum, event) => sum + event.tokenCount, 0),
      handoffManifestId: head ? null : source.handoffManifestId,
    };
    return {
      text,
      items: head ? [head, part] : [part],
      handles: handle ? [handle] : [],
      shows: { ids: fresh.map((event) => event.id), where: whereOf(from, source.last) },
    };
  }
  return null;
}

function assembleContext(
  fixed: CompiledSection[],
  candidates: Candidate[],
  placed: Map<Candidate, Placement>,
  handleOf: (candidate: Candidate) => CountedText,
  summaryHandle: CountedText,
  optionalBudget: number,
): CompiledSection[] {
  const texts = new Map<ContextSectionKind, CountedText[]>();
  const omittedHandles: CountedText[] = [];
  for (const candidate of candidates) {
    const placement = placed.get(candidate);
    if (placement === undefined) {
      if (!candidate.recommended) omittedHandles.push(handleOf(candidate));
    } else {
      texts.set(candidate.section, [...(texts.get(candidate.section) ?? []), placement.text]);
      omittedHandles.push(...placement.handles);
    }
  }
  const sections = [...fixed];
  const order = [ContextSectionKind.HANDOFF, ContextSectionKind.PINNED_SOURCE, ContextSectionKind.RECENT_EXCHANGE, ContextSectionKind.EXCERPT];
  for (const kind of order) {
    const parts = texts.get(kind);
    if (parts) sections.push(section(kind, parts));
  }
  if (omittedHandles.length) {
    const used = sections.slice(fixed.length).reduce((sum, s) => sum + s.tokenCount + 1, 0);
    const listed = section(ContextSectionKind.OMITTED_HANDLES, omittedHandles);
    sections.push(used + listed.tokenCount <= optionalBudget ? listed : section(ContextSectionKind.OMITTED_HANDLES, [summaryHandle]));
  }
  return sections;
}

/** A section of one line or more, each counted before. */
function section(kind: ContextSectionKind, lines: CountedText[]): CompiledSection {
  return { kind, text: lines.map((line) => line.text).join('\n'), tokenCount: countJoinedTokens(lines, '\n') };
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

/** An exact read: an event range of one session (from and to equal for one event), a resource version, or a memory entry. */
export type SourceRead =
  | { kind: 'EVENTS'; sessionId: string; fromEventId: string; toEventId: string }
  | { kind: 'RESOURCE'; url: string; version: string }
  | { kind: 'MEMORY'; path: string; cid: string };

function reads(item: ManifestItem, read: SourceRead): boolean {
  switch (read.kind) {
    case 'EVENTS':
      if (item.sessionId !== read.sessionId) return false;
      return item.kind === SourceKind.SESSION_EVENT
        ? read.fromEventId === item.eventId && read.toEventId === item.eventId
        : item.kind === SourceKind.SESSION_EVENTS && read.fromEventId === item.fromEventId && read.toEventId === item.toEventId;
    case 'RESOURCE':
      // A version read holds every block of it, so it recalls block items of that version too.
      return item.kind === SourceKind.RESOURCE && item.url === read.url && item.version === read.version;
    case 'MEMORY':
      return item.kind === SourceKind.MEMORY && item.path === read.path && item.cid === read.cid;
  }
}

/** Indexes of the manifest items an exact read recalls: OMITTED sources with exactly those bounds, as their handles name them. */
export function recalledItems(items: ManifestItem[], read: SourceRead): number[] {
  return items.flatMap((item, index) => (item.status === ManifestItemStatus.OMITTED && reads(item, read) ? [index] : []));
}
