import type { AttachmentReference } from '../../attachments/attachments';
import { Handoff, SourceInput, SourceKind, TransferredState } from '../continuations';
import type { PlanStep } from '../../plans/plans';
import { TOKENIZER } from '../../../shared/tokens';

/** Names the rules below; stored in every manifest so that old manifests stay explainable. */
export const COMPILER_VERSION = 'projection-compiler/4';
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

/** The sections never dropped, in the order the compiler renders them, before every other. */
export const FIXED_SECTIONS = [
  ContextSectionKind.SYSTEM,
  ContextSectionKind.IDENTITY,
  ContextSectionKind.STATE,
  ContextSectionKind.LINEAGE,
  ContextSectionKind.INITIATING_MESSAGE,
] as const;
export type FixedSectionKind = (typeof FIXED_SECTIONS)[number];

/**
 * The specification's order for the rest: what the budget fills first, and the order the sections
 * are rendered in. Handles of what was left out follow them all.
 */
export const OPTIONAL_SECTIONS = [
  ContextSectionKind.HANDOFF,
  ContextSectionKind.PINNED_SOURCE,
  ContextSectionKind.RECENT_EXCHANGE,
  ContextSectionKind.EXCERPT,
] as const;
export type OptionalSectionKind = (typeof OPTIONAL_SECTIONS)[number];

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
  /** The events that matched, best first, with what they matched: placed before their neighbours. */
  hits: { seq: number; score: number; matchedWords: string[] }[];
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

export const INITIATING_RELEVANCE = 'the initiating user message';
export const INITIATING_ATTACHMENT_RELEVANCE = 'attached to the initiating user message';
export const RECENT_RELEVANCE = 'recent exchange before the initiating message';

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
