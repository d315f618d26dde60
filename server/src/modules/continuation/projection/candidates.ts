import { CountedText, countJoinedTokens, countTokens } from '../../../shared/tokens';
import { SourceKind } from '../continuations';
import { eventItem, rangeTokens } from './manifest';
import {
  ContextSectionKind,
  EventBounds,
  EventRangeRead,
  ManifestItem,
  ManifestItemOrigin,
  ManifestItemStatus,
  OPTIONAL_SECTIONS,
  OptionalSectionKind,
  ProjectedEvent,
  ProjectionRequest,
  ProjectionSourceReader,
  RECENT_EXCHANGE_EVENTS,
  RECENT_RELEVANCE,
  RecommendedContent,
  RecommendedRange,
  ResolvedContentSource,
  ResolvedSource,
} from './model';
import { evidenceOrder, placeEvidence } from './evidence';
import { countedEvent, handleLine, renderAttachment, renderContent, renderHandoff } from './render';

/** What a candidate puts in the context, and the manifest items it leaves. */
export interface Placement {
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
export interface Candidate {
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

export function counted(text: string): CountedText {
  return { text, tokens: countTokens(text) };
}

export function placementCost(placement: Placement): number {
  return placement.handles.reduce((sum, handle) => sum + handle.tokens + 1, placement.text.tokens + 1);
}

/** A recommended range around hits is a few events, read whole; a recalled range that matches no word, only its end that could fit. */
function recommendedRead(range: RecommendedRange | RecommendedContent, budget: number): EventRangeRead | null {
  return range.type === 'EVENTS' && range.last.tokenCount <= budget
    ? {
        sessionId: range.first.sessionId,
        fromSeq: range.first.seq,
        toSeq: range.last.seq,
        ...(range.hits.length ? {} : { withinTokens: budget }),
      }
    : null;
}

/** The reads the compiler will ask for the recommendations, known before anything else it reads. */
export function recommendedReads(recommended: (RecommendedRange | RecommendedContent)[], budget: number): EventRangeRead[] {
  return recommended.flatMap((range) => recommendedRead(range, budget) ?? []);
}

/** The optional pieces of the context, in the order the budget takes them ({@link OPTIONAL_SECTIONS}). */
export async function collectCandidates(request: ProjectionRequest, reader: ProjectionSourceReader): Promise<Candidate[]> {
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
  const recommendedRangeReads = recommended.map((range) => recommendedRead(range, budget));
  const reads = [recentRead, ...citedReads, ...recommendedRangeReads].filter((read): read is EventRangeRead => read !== null);
  const fetched = reads.length ? await reader.eventsInRanges(reads) : [];
  const eventsOf = (read: EventRangeRead | null) => (read ? fetched[reads.indexOf(read)] : null);

  const handoffText = renderHandoff(request.handoff);
  let handoff: CountedText | null = null;
  const recent = eventsOf(recentRead) ?? [];
  const bySection: Record<OptionalSectionKind, Candidate[]> = {
    HANDOFF: [
      {
        section: ContextSectionKind.HANDOFF,
        omitted: null,
        handle: `- the handoff: read_manifest ${request.manifestId}`,
        place: (fits) => {
          handoff ??= counted(handoffText);
          return fits(handoff.tokens + 1) ? { text: handoff, items: [], handles: [], shows: null } : null;
        },
      },
    ],
    PINNED_SOURCE: request.pins.map((pin) => sourceCandidate(ContextSectionKind.PINNED_SOURCE, pin, null, budget)),
    RECENT_EXCHANGE: recent.length
      ? [
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
        ]
      : [],
    // Cited excerpts, most relevant first, then what assisted selection recommends, best first.
    EXCERPT: [
      ...request.sources.map((source, index) => sourceCandidate(ContextSectionKind.EXCERPT, source, eventsOf(citedReads[index]), budget)),
      ...recommendedCandidates(
        recommended,
        recommendedRangeReads.map((read) => eventsOf(read)),
      ),
    ],
  };
  return OPTIONAL_SECTIONS.flatMap((kind) => bySection[kind]);
}

/**
 * What assisted selection recommends as candidates: its event ranges as one, placed evidence first
 * ({@link placeEvidence}) where the best of them ranks, and each resource block or memory entry on
 * its own, placed only where it fits and shows something the context does not show yet.
 */
function recommendedCandidates(recommended: (RecommendedRange | RecommendedContent)[], events: (ProjectedEvent[] | null)[]): Candidate[] {
  const ranges = recommended.flatMap((recommendation) => (recommendation.type === 'EVENTS' ? [recommendation] : []));
  const rangeEvents = recommended.flatMap((recommendation, index) => (recommendation.type === 'EVENTS' ? [events[index]] : []));
  const order = evidenceOrder(ranges, rangeEvents);
  const evidence: Candidate = {
    section: ContextSectionKind.EXCERPT,
    recommended: true,
    omitted: null,
    handle: '',
    place: (fits, shown) => {
      const placed = placeEvidence(order, ranges, fits, shown);
      return placed && { text: placed.text, items: placed.items, handles: [], shows: { ids: placed.ids, where: 'the recommended excerpt' } };
    },
  };
  const candidates = recommended.flatMap((recommendation) => (recommendation.type === 'CONTENT' ? [contentRecommendation(recommendation)] : []));
  const firstRange = recommended.findIndex((recommendation) => recommendation.type === 'EVENTS');
  // Everything before the first range is content.
  if (firstRange >= 0) candidates.splice(firstRange, 0, evidence);
  return candidates;
}

function contentRecommendation(recommendation: RecommendedContent): Candidate {
  const item = { ...recommendation.source.item, relevance: recommendation.reason, origin: ManifestItemOrigin.RECOMMENDED, score: recommendation.score };
  const content = contentCandidate(ContextSectionKind.EXCERPT, { ...recommendation.source, item });
  // Content the context shows already (pinned or cited) is not recommended again.
  const { own, holder } = contentKeys(item);
  const place: Candidate['place'] = (fits, shown) => (shown.has(own) || (holder !== null && shown.has(holder)) ? null : content.place(fits, shown));
  return { ...content, place, recommended: true };
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
      runs.push({ from: index, line: countedEvent(events[index]), fresh: true });
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
    const open = counted(openTag(from));
    if (!fits(open.tokens + linesFrom[index] + 1 + handleCost)) continue;
    // The lines were counted one by one: only their seams are counted again.
    const lines = [open, ...runs.slice(index).map((later) => later.line), close];
    const text = { text: lines.map((line) => line.text).join('\n'), tokens: countJoinedTokens(lines, '\n') };
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

