import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json';
import { Handoff, SourceInput, SourceKind, TransferredState } from './continuations';
import { ErrorCode, Outcome, fail, succeed } from './errors';
import { PlanStep, renderPlan } from './plans';
import { CountedText, countJoinedTokens, countRecurringTokens, countTokens, TOKENIZER } from './tokens';

/** Names the rules below; stored in every manifest so that old manifests stay explainable. */
export const COMPILER_VERSION = 'projection-compiler/1';
export const MODEL_VERSION = TOKENIZER;
export const DEFAULT_TOKEN_BUDGET = 8_000;
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

export interface ManifestItem {
  kind: SourceKind;
  status: ManifestItemStatus;
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
  /** Tokens of the whole source, whether it was loaded or not. */
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
}

/** An inclusive range of one session's events. */
export interface EventRange {
  sessionId: string;
  fromSeq: number;
  toSeq: number;
}

/** Where the compiler reads exact sources. Implementations read only what they are asked for. */
export interface ProjectionSourceReader {
  /** The events of each range, oldest first, aligned with `ranges`: one round trip for all. */
  eventsInRanges(ranges: EventRange[]): Promise<ProjectedEvent[][]>;
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

export type ResolvedSource = ResolvedEventSource | ResolvedContentSource | UnavailableSource;

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
  /** The recent exchange is read from this session, before this seq. */
  recentBefore: { sessionId: string; seq: number };
  handoff: Handoff;
  /** Pinned resources, loaded right after the handoff. */
  pins: (ResolvedContentSource | UnavailableSource)[];
  /** Cited sources, most relevant first. */
  sources: ResolvedSource[];
  /**
   * Added to the minimum budget a refusal advises, for a caller whose next attempt renders
   * differently (new ids in the lineage block tokenize to slightly different lengths).
   */
  minimumAllowance?: number;
}

export interface Projection {
  sections: CompiledSection[];
  items: ManifestItem[];
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
export function rangeTokens(first: ProjectedEvent, last: ProjectedEvent): number {
  return last.tokenTotal - first.tokenTotal + first.tokenCount;
}

/**
 * The content hash of an event range: the chain hashes of its first and last events pin exactly
 * which events it holds, since each event's hash covers every event before it.
 */
export function rangeHash(first: ProjectedEvent, last: ProjectedEvent): string {
  return first.id === last.id ? last.hash : sha256(canonicalJson([first.hash, last.hash]));
}

function renderEvent(event: ProjectedEvent): string {
  const payload = event.data == null ? '' : ` ${canonicalJson(event.data)}`;
  return `[event ${event.id} seq ${event.seq} ${event.kind}]${event.text == null ? '' : ` ${event.text}`}${payload}`;
}

function renderRange(tag: string, events: ProjectedEvent[], relevance: string): string {
  const first = events[0];
  const last = events[events.length - 1];
  return [
    `<${tag} session="${first.sessionId}" from="${first.id}" to="${last.id}" relevance="${relevance.replace(/"/g, "'")}">`,
    ...events.map(renderEvent),
    `</${tag}>`,
  ].join('\n');
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
  first: ProjectedEvent,
  last: ProjectedEvent,
  status: ManifestItemStatus,
): ManifestItem {
  const single = kind === SourceKind.SESSION_EVENT;
  return {
    kind,
    status,
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

/** One optional piece of context, in priority order; `load` reads and renders it when it may fit. */
interface Candidate {
  section: ContextSectionKind;
  item: ManifestItem | null;
  /** A lower bound of its rendered tokens, known without reading it. */
  minimumTokens: number;
  handle: string;
  /** A broken breadcrumb: never loaded, always listed among the handles. */
  unavailable: boolean;
  load(): Promise<string>;
}

/**
 * Compiles the successor's initial context within `tokenBudget`, in the specification's order:
 * control, identity, state, lineage and the initiating message (never dropped), then the handoff,
 * the recent exchange and the cited excerpts while they fit, then one handle per source left out.
 * Reads only what it may load, so its cost follows the budget, not the history.
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
    { kind: ContextSectionKind.INITIATING_MESSAGE, text: renderEvent(initiating), tokenCount: 0 },
  ].map((section) => ({
    ...section,
    tokenCount: RECURRING_SECTIONS.has(section.kind) ? countRecurringTokens(section.text) : countTokens(section.text),
  }));
  const separatorTokens = countTokens(SECTION_SEPARATOR);
  const summaryHandle = `- more omitted sources: read_manifest ${request.manifestId}`;
  const summary = { text: summaryHandle, tokens: countTokens(summaryHandle) };

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

  const included = new Map<Candidate, CountedText>();
  const handles = new Map<Candidate, CountedText>();
  // A handle is counted only when it matters: when it is listed, or when the budget is too tight for its bound.
  const handleOf = (candidate: Candidate): CountedText => {
    let handle = handles.get(candidate);
    if (!handle) {
      handle = { text: candidate.handle, tokens: countTokens(candidate.handle) };
      handles.set(candidate, handle);
    }
    return handle;
  };
  const assemble = () => assembleContext(fixed, candidates, included, handleOf, summary, request.tokenBudget - fixedTokens);
  let remaining = request.tokenBudget - minimum;
  // Room is kept for the handle (and its line break) of every candidate still to decide. A token
  // is at least a byte, so a handle's UTF-8 length bounds its count: a candidate that fits with
  // every later handle at its bound fits with their exact counts too, which are taken otherwise.
  const handleBounds = candidates.map((candidate) => Buffer.byteLength(candidate.handle, 'utf8') + 1);
  let boundsAfter = handleBounds.reduce((sum, bound) => sum + bound, 0);
  const fitsWithLaterHandles = (tokens: number, index: number) =>
    tokens <= remaining - boundsAfter ||
    tokens <= remaining - candidates.slice(index + 1).reduce((sum, later) => sum + handleOf(later).tokens + 1, 0);
  for (const [index, candidate] of candidates.entries()) {
    boundsAfter -= handleBounds[index];
    if (!candidate.unavailable && fitsWithLaterHandles(candidate.minimumTokens, index)) {
      const text = await candidate.load();
      const tokens = countTokens(text);
      if (fitsWithLaterHandles(tokens + 1, index)) {
        included.set(candidate, { text, tokens });
        remaining -= tokens + 1;
      }
    }
  }

  // Joining texts can merge tokens at the seams; verify the real count and shed from the end.
  const contextTokens = (compiled: CompiledSection[]) =>
    countJoinedTokens(compiled.map((section) => ({ text: section.text, tokens: section.tokenCount })), SECTION_SEPARATOR);
  let sections = assemble();
  let tokenCost = contextTokens(sections);
  while (tokenCost > request.tokenBudget && included.size > 0) {
    included.delete([...included.keys()].pop() as Candidate);
    sections = assemble();
    tokenCost = contextTokens(sections);
  }

  const items: ManifestItem[] = [
    eventItem(SourceKind.SESSION_EVENT, 'the initiating user message', initiating, initiating, ManifestItemStatus.INCLUDED),
    ...candidates
      .filter((candidate) => candidate.item !== null)
      .map((candidate) => ({
        ...(candidate.item as ManifestItem),
        status: candidate.unavailable
          ? ManifestItemStatus.UNAVAILABLE
          : included.has(candidate)
            ? ManifestItemStatus.INCLUDED
            : ManifestItemStatus.OMITTED,
      })),
  ];
  return succeed({ sections, items, tokenCost });
}

async function collectCandidates(request: ProjectionRequest, reader: ProjectionSourceReader): Promise<Candidate[]> {
  // One read for the recent exchange and every cited range that could fit the budget on its own;
  // a range larger than the whole budget is never read.
  const { sessionId, seq } = request.recentBefore;
  const recentRange = seq > 1 ? { sessionId, fromSeq: Math.max(1, seq - RECENT_EXCHANGE_EVENTS), toSeq: seq - 1 } : null;
  const excerptRanges = request.sources.flatMap((source) =>
    source.type === 'EVENTS' && rangeTokens(source.first, source.last) <= request.tokenBudget
      ? [{ sessionId: source.first.sessionId, fromSeq: source.first.seq, toSeq: source.last.seq }]
      : [],
  );
  const ranges = recentRange ? [recentRange, ...excerptRanges] : excerptRanges;
  const fetched = ranges.length ? await reader.eventsInRanges(ranges) : [];
  const prefetched = new Map(ranges.map((range, index) => [rangeKey(range), fetched[index]]));
  const eventsOf = async (range: EventRange) =>
    prefetched.get(rangeKey(range)) ?? (await reader.eventsInRanges([range]))[0];

  const handoffText = renderHandoff(request.handoff);
  const candidates: Candidate[] = [
    {
      section: ContextSectionKind.HANDOFF,
      item: null,
      minimumTokens: 0,
      handle: `- the handoff: read_manifest ${request.manifestId}`,
      unavailable: false,
      load: async () => handoffText,
    },
    ...request.pins.map((pin) => sourceCandidate(ContextSectionKind.PINNED_SOURCE, pin, eventsOf)),
  ];

  const recent = recentRange ? (prefetched.get(rangeKey(recentRange)) ?? []) : [];
  if (recent.length > 0) {
    const item = eventItem(
      SourceKind.SESSION_EVENTS,
      'recent exchange before the initiating message',
      recent[0],
      recent[recent.length - 1],
      ManifestItemStatus.OMITTED,
    );
    candidates.push({
      section: ContextSectionKind.RECENT_EXCHANGE,
      item,
      minimumTokens: item.tokenCount,
      handle: handleLine(item),
      unavailable: false,
      load: async () => renderRange('recent_exchange', recent, item.relevance),
    });
  }
  candidates.push(...request.sources.map((source) => sourceCandidate(ContextSectionKind.EXCERPT, source, eventsOf)));
  return candidates;
}

function rangeKey(range: EventRange): string {
  return `${range.sessionId}:${range.fromSeq}:${range.toSeq}`;
}

function sourceCandidate(
  section: ContextSectionKind,
  source: ResolvedSource,
  eventsOf: (range: EventRange) => Promise<ProjectedEvent[]>,
): Candidate {
  switch (source.type) {
    case 'EVENTS': {
      const item = {
        ...eventItem(source.input.kind, source.input.relevance, source.first, source.last, ManifestItemStatus.OMITTED),
        handoffManifestId: source.handoffManifestId,
      };
      return {
        section,
        item,
        minimumTokens: item.tokenCount,
        handle: handleLine(item),
        unavailable: false,
        load: async () =>
          renderRange(
            'excerpt',
            await eventsOf({ sessionId: source.first.sessionId, fromSeq: source.first.seq, toSeq: source.last.seq }),
            item.relevance,
          ),
      };
    }
    case 'CONTENT':
      return {
        section,
        item: source.item,
        minimumTokens: source.item.tokenCount,
        handle: handleLine(source.item),
        unavailable: false,
        load: async () => renderContent(source.item, source.text),
      };
    case 'UNAVAILABLE':
      return {
        section,
        item: source.item,
        minimumTokens: 0,
        handle: handleLine({ ...source.item, status: ManifestItemStatus.UNAVAILABLE }),
        unavailable: true,
        load: async () => '',
      };
  }
}

function assembleContext(
  fixed: CompiledSection[],
  candidates: Candidate[],
  included: Map<Candidate, CountedText>,
  handleOf: (candidate: Candidate) => CountedText,
  summaryHandle: CountedText,
  optionalBudget: number,
): CompiledSection[] {
  const texts = new Map<ContextSectionKind, CountedText[]>();
  const omittedHandles: CountedText[] = [];
  for (const candidate of candidates) {
    const text = included.get(candidate);
    if (text === undefined) omittedHandles.push(handleOf(candidate));
    else texts.set(candidate.section, [...(texts.get(candidate.section) ?? []), text]);
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
