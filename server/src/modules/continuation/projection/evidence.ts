import { CountedText, countJoinedTokens, countTokens } from '../../../shared/tokens';
import { SourceKind } from '../continuations';
import { eventItem } from './manifest';
import { ManifestItem, ManifestItemOrigin, ManifestItemStatus, ProjectedEvent, RecommendedRange } from './model';
import { countedEvent } from './render';

/**
 * Evidence-first placement of what assisted selection recommends. The matching events themselves
 * are what answers a question, so the budget goes to them before their surroundings: the best
 * hits alone first, then the neighbours of those hits (the event after each: the answer after a
 * question), then the next hits, then their neighbours, while the budget lasts. A hit close to a
 * stronger one of its session is placed as if it scored part of the way up to it: a conversation
 * stays on a topic for a few turns, so a weak match there is more likely about what was asked than
 * the same match anywhere else.
 * What is placed is shown as merged ranges, each event once, in one element per session: the
 * events' lines carry their ids and seqs, so ranges need no tag of their own, only a gap line.
 */

/**
 * The best hits, placed alone before any neighbour is; their neighbours follow, then every other
 * hit, then those hits' neighbours. See docs/search.md for the measurements that chose it.
 */
export const BEST_HITS = 5;
/**
 * The neighbour placed beside a hit: the event after it, often the answer to a hit that asks. The
 * event before (the question a hit answers) added about as much as it cost in the measurements
 * (docs/search.md), so its room goes to further hits.
 */
export const NEIGHBOUR_OFFSETS = [1];
/** How far (in events of its session) a stronger hit lifts a weaker one. See docs/search.md. */
export const PASSAGE_DISTANCE = 5;
/** The share of a nearby stronger hit's lead that a hit gains for placement. */
export const PASSAGE_SHARE = 0.5;
/** The line between two ranges of one session's element. */
export const GAP_LINE = '[...]';

const keyOf = (sessionId: string, seq: number) => `${sessionId} ${seq}`;

/** An event in placement order, with the hit it is placed for: itself, or the hit it neighbours. */
export interface EvidenceStep {
  event: ProjectedEvent;
  /** The id of the hit it neighbours; null for a hit itself, or an event of a recalled range. */
  neighbourOf: string | null;
}

interface PlacedHit {
  sessionId: string;
  seq: number;
  score: number;
}

/**
 * The hits with the scores placement orders them by: each raised by {@link PASSAGE_SHARE} of the
 * lead of the strongest hit within {@link PASSAGE_DISTANCE} events of it in its session. A hit never
 * passes the one that lifts it.
 */
export function passageScores(hits: PlacedHit[]): PlacedHit[] {
  const bySession = new Map<string, PlacedHit[]>();
  for (const hit of hits) {
    const of = bySession.get(hit.sessionId);
    if (of) of.push(hit);
    else bySession.set(hit.sessionId, [hit]);
  }
  return hits.map((hit) => {
    const near = bySession.get(hit.sessionId)!.filter((other) => Math.abs(other.seq - hit.seq) <= PASSAGE_DISTANCE);
    const lead = Math.max(0, ...near.map((other) => other.score - hit.score));
    return { ...hit, score: hit.score + PASSAGE_SHARE * lead };
  });
}

/**
 * The recommended ranges' events in the order evidence-first placement takes them: the
 * {@link BEST_HITS} best hits (best first across every range, as {@link passageScores} lifts them),
 * their neighbours, every other hit,
 * those hits' neighbours; then the events of recalled ranges that match no word. `events` holds each
 * range's events, aligned with `ranges`; an event comes once.
 */
export function evidenceOrder(ranges: RecommendedRange[], events: (ProjectedEvent[] | null)[]): EvidenceStep[] {
  const bySeq = new Map<string, ProjectedEvent>();
  for (const read of events) for (const event of read ?? []) bySeq.set(keyOf(event.sessionId, event.seq), event);
  const found = ranges.flatMap((range) => range.hits.map((hit) => ({ sessionId: range.first.sessionId, seq: hit.seq, score: hit.score })));
  const hits = passageScores(found).sort((a, b) => b.score - a.score || a.sessionId.localeCompare(b.sessionId) || a.seq - b.seq);
  const order: EvidenceStep[] = [];
  const taken = new Set<string>();
  const take = (sessionId: string, seq: number, neighbourOf: string | null) => {
    const event = bySeq.get(keyOf(sessionId, seq));
    if (!event || taken.has(event.id)) return;
    taken.add(event.id);
    order.push({ event, neighbourOf });
  };
  for (const tier of [hits.slice(0, BEST_HITS), hits.slice(BEST_HITS)]) {
    for (const hit of tier) take(hit.sessionId, hit.seq, null);
    for (const offset of NEIGHBOUR_OFFSETS) {
      for (const hit of tier) {
        const hitEvent = bySeq.get(keyOf(hit.sessionId, hit.seq));
        if (hitEvent) take(hit.sessionId, hit.seq + offset, hitEvent.id);
      }
    }
  }
  for (const [index, range] of ranges.entries()) {
    if (range.hits.length === 0) for (const event of events[index] ?? []) take(event.sessionId, event.seq, null);
  }
  return order;
}

/** A run of consecutive events of one session, placed together. */
interface EvidenceRange {
  events: ProjectedEvent[];
  /** Position of its earliest-placed event in the placement order: the range's rank. */
  rank: number;
}

/** The placed events as ranges of consecutive seqs, grouped by session, both in placement rank. */
export function mergedRanges(placed: ProjectedEvent[]): { sessionId: string; ranges: EvidenceRange[] }[] {
  const rankOf = new Map(placed.map((event, index) => [event.id, index]));
  const sorted = [...placed].sort((a, b) => a.sessionId.localeCompare(b.sessionId) || a.seq - b.seq);
  const ranges: EvidenceRange[] = [];
  for (const event of sorted) {
    const previous = ranges[ranges.length - 1]?.events.at(-1);
    const rank = rankOf.get(event.id)!;
    if (previous && previous.sessionId === event.sessionId && previous.seq + 1 === event.seq) {
      const range = ranges[ranges.length - 1];
      range.events.push(event);
      range.rank = Math.min(range.rank, rank);
    } else {
      ranges.push({ events: [event], rank });
    }
  }
  ranges.sort((a, b) => a.rank - b.rank);
  const sessions = new Map<string, EvidenceRange[]>();
  for (const range of ranges) {
    const sessionId = range.events[0].sessionId;
    sessions.set(sessionId, [...(sessions.get(sessionId) ?? []), range]);
  }
  return [...sessions].map(([sessionId, of]) => ({ sessionId, ranges: of }));
}

function matchReason(words: string[], events: number): string {
  const quoted = [...new Set(words)].sort().map((word) => `"${word}"`);
  return `matches ${quoted.join(', ')} in ${events} event${events === 1 ? '' : 's'}`;
}

/** The manifest item of a placed range: why it was recommended (the hits it holds), scored by its best hit. */
function rangeItem(range: EvidenceRange, recommended: RecommendedRange[]): ManifestItem {
  const first = range.events[0];
  const last = range.events[range.events.length - 1];
  const holders = recommended.filter((of) => of.first.sessionId === first.sessionId && of.first.seq <= last.seq && first.seq <= of.last.seq);
  const hits = holders.flatMap((of) => of.hits).filter((hit) => hit.seq >= first.seq && hit.seq <= last.seq);
  const reason = hits.length ? matchReason(hits.flatMap((hit) => hit.matchedWords), hits.length) : (holders[0]?.reason ?? 'recommended');
  const score = hits.length ? Math.max(...hits.map((hit) => hit.score)) : Math.max(0, ...holders.map((of) => of.score));
  const kind = first.id === last.id ? SourceKind.SESSION_EVENT : SourceKind.SESSION_EVENTS;
  return {
    ...eventItem(kind, reason, first, last, ManifestItemStatus.INCLUDED, ManifestItemOrigin.RECOMMENDED, score),
    tokenCount: range.events.reduce((sum, event) => sum + event.tokenCount, 0),
  };
}

export const EVIDENCE_RELEVANCE = 'recommended for the purpose: the best matches first, with their neighbours';

function openTag(sessionId: string): string {
  return `<excerpt session="${sessionId}" relevance="${EVIDENCE_RELEVANCE}">`;
}

/** The placed events as the context shows them, and their manifest items, in placement rank. */
export function renderEvidence(
  placed: ProjectedEvent[],
  lineOf: (event: ProjectedEvent) => CountedText,
  recommended: RecommendedRange[],
): { text: CountedText; items: ManifestItem[] } {
  const lines: CountedText[] = [];
  const items: ManifestItem[] = [];
  const gap = { text: GAP_LINE, tokens: countTokens(GAP_LINE) };
  const close = { text: '</excerpt>', tokens: countTokens('</excerpt>') };
  for (const { sessionId, ranges } of mergedRanges(placed)) {
    const open = openTag(sessionId);
    lines.push({ text: open, tokens: countTokens(open) });
    for (const [index, range] of ranges.entries()) {
      if (index > 0) lines.push(gap);
      lines.push(...range.events.map(lineOf));
      items.push(rangeItem(range, recommended));
    }
    lines.push(close);
  }
  return { text: { text: lines.map((line) => line.text).join('\n'), tokens: countJoinedTokens(lines, '\n') }, items };
}

/**
 * The events of `order` that fit, taken in that order (an event the context shows already is
 * skipped, one too large for what is left is passed over, and so is a neighbour of a hit the
 * context does not show), rendered as merged ranges: null when
 * none fits. `fits` tests a cost: the text's tokens and its line break.
 */
export function placeEvidence(
  order: EvidenceStep[],
  recommended: RecommendedRange[],
  fits: (tokens: number) => boolean,
  shown: ReadonlyMap<string, string>,
): { text: CountedText; items: ManifestItem[]; ids: string[] } | null {
  const lineCache = new Map<string, CountedText>();
  const lineOf = (event: ProjectedEvent) => {
    let line = lineCache.get(event.id);
    if (!line) lineCache.set(event.id, (line = countedEvent(event)));
    return line;
  };
  const sessionCost = (sessionId: string) => countTokens(openTag(sessionId)) + countTokens('</excerpt>') + 2;
  const gapCost = countTokens(GAP_LINE) + 1;
  const placed: ProjectedEvent[] = [];
  const placedIds = new Set<string>();
  const at = new Set<string>();
  const sessions = new Set<string>();
  // An estimate that sums the lines' own counts; the text's exact count is checked at the end.
  let estimate = 1;
  for (const { event, neighbourOf } of order) {
    // A neighbour is context for its hit: placed only beside it.
    if (shown.has(event.id) || (neighbourOf !== null && !shown.has(neighbourOf) && !placedIds.has(neighbourOf))) continue;
    const before = at.has(keyOf(event.sessionId, event.seq - 1));
    const after = at.has(keyOf(event.sessionId, event.seq + 1));
    const newSession = !sessions.has(event.sessionId);
    // A new range needs a gap line, unless it opens its session's element; joining two ranges saves one.
    const rangeCost = before && after ? -gapCost : before || after || newSession ? 0 : gapCost;
    const cost = lineOf(event).tokens + 1 + rangeCost + (newSession ? sessionCost(event.sessionId) : 0);
    if (!fits(estimate + cost)) continue;
    estimate += cost;
    placed.push(event);
    placedIds.add(event.id);
    at.add(keyOf(event.sessionId, event.seq));
    sessions.add(event.sessionId);
  }
  // Seams may tokenize differently from the lines alone: shed the last placed until the text fits.
  while (placed.length) {
    const rendered = renderEvidence(placed, lineOf, recommended);
    if (fits(rendered.text.tokens + 1)) return { ...rendered, ids: placed.map((event) => event.id) };
    placed.pop();
  }
  return null;
}
