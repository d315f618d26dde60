import { ErrorCode, Outcome, fail, succeed } from '../../../shared/errors';
import { ParsedSearchQuery } from '../../search/search';

/**
 * Assisted selection: which exact sources of a lineage are worth carrying for a purpose. SQL finds
 * the candidates (events whose text matches the purpose's words, with their neighbours, and
 * sources that earlier manifests of the lineage left out but were recalled); the ranking here
 * is plain arithmetic over them, deterministic for the same candidates.
 *
 * - A hit becomes a window: the event before it (often the question), the hit, the event after
 *   it (often the answer). Windows of one session that overlap or touch merge into one range.
 * - A range scores its best hit's relevance plus a quarter of its other hits': several hits in
 *   one passage make it more likely the one meant, without letting a long chatty passage win by
 *   bulk.
 * - A source recalled before (the projection-quality signal the specification asks for) gets a
 *   boost of half the natural log of one plus its recall count, as a factor; a recalled source
 *   that matches no word still competes, at a small base score.
 * - A resource block (of a resource's latest version) or a current memory entry that matches
 *   scores its own relevance, on the same scale as an event hit, and competes with the ranges.
 */
export const WINDOW_BEFORE = 1;
export const WINDOW_AFTER = 1;
export const OTHER_HITS_WEIGHT = 0.25;
export const RECALL_BOOST = 0.5;
export const RECALLED_BASE_SCORE = 0.05;
/** Candidate hits SQL returns before ranking, for a list of recommendations (at most 50). */
export const CANDIDATE_HITS = 60;
/**
 * Candidate hits an assisted projection considers: more than an 8,000-token budget holds (a turn
 * of conversation is about 50 tokens there), so that the budget is filled with hits, and an event
 * too large for what is left can be passed over for smaller ones further down.
 */
export const PROJECTION_CANDIDATE_HITS = 300;
/** Matching resource blocks, and matching memory entries, SQL returns before ranking. */
export const CONTENT_CANDIDATES = 10;
/** Words of a purpose searched for; a purpose is a sentence or two, and more words only widen the scan. */
export const PURPOSE_WORDS = 32;
export const MAX_PURPOSE_LENGTH = 2_000;
export const DEFAULT_RECOMMENDATIONS = 10;
export const MAX_RECOMMENDATIONS = 50;

/** An event as ranking needs it: where it is and what it costs. */
export interface EventBound {
  id: string;
  sessionId: string;
  seq: number;
  tokenCount: number;
  /** The session's running token count through this event. */
  tokenTotal: number;
  hash: string;
}

/** An event matching the purpose, with its neighbours (itself included) in seq order. */
export interface Hit {
  eventId: string;
  sessionId: string;
  seq: number;
  relevance: number;
  matchedWords: string[];
  neighbours: EventBound[];
}

/** A range an earlier manifest of the lineage left out and someone read back since. */
export interface RecalledRange {
  first: EventBound;
  last: EventBound;
  recallCount: number;
}

/** A resource block or memory entry whose text matches the purpose, by its exact address. */
export interface ContentHit {
  kind: 'RESOURCE' | 'MEMORY';
  url: string | null;
  version: string | null;
  blockId: string | null;
  path: string | null;
  relevance: number;
  matchedWords: string[];
}

/** A hit inside a ranked range: what evidence-first placement orders by. */
export interface RangeHit {
  seq: number;
  /** The hit's relevance, boosted as its range is for earlier recalls. */
  score: number;
  matchedWords: string[];
}

export interface RankedRange {
  first: EventBound;
  last: EventBound;
  score: number;
  /** The range's hits, best first; none for a recalled range that matches no word. */
  hits: RangeHit[];
  tokenCount: number;
  /** For a person: what matched, and how often the range was recalled. */
  reason: string;
}

/** The words of a purpose, and the query holding them as alternatives (without operators a search would read in them). */
export function purposeQuery(purpose: string): { query: ParsedSearchQuery; words: string[] } {
  // Inner dots, dashes and apostrophes belong to a word ("eu-west", "v1.2", "don't"); trailing ones end a sentence.
  const found = (purpose.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'_.-]*/gu) ?? []).map((word) => word.replace(/[.'_-]+$/, ''));
  const words = [...new Set(found)]
    .filter((word) => word !== 'or' && word !== 'and')
    .slice(0, PURPOSE_WORDS);
  return { query: { strict: '', anyWords: words.join(' or ') }, words };
}

export function validatePurpose(purpose: string, path: string[]): Outcome<string> {
  const trimmed = purpose.trim();
  if (!trimmed) return fail(ErrorCode.INVALID_INPUT, 'The purpose is empty: say what the sources are for.', [{ path, message: 'Must not be empty.' }]);
  if (purpose.length > MAX_PURPOSE_LENGTH) {
    const message = `The purpose is longer than ${MAX_PURPOSE_LENGTH} characters.`;
    return fail(ErrorCode.INVALID_INPUT, message, [{ path, message }]);
  }
  return succeed(trimmed);
}

export function rangeTokenCount(first: EventBound, last: EventBound): number {
  return last.tokenTotal - first.tokenTotal + first.tokenCount;
}

interface Window {
  sessionId: string;
  first: EventBound;
  last: EventBound;
  hits: Hit[];
}

function windowOf(hit: Hit): Window {
  const near = hit.neighbours.filter((event) => event.seq >= hit.seq - WINDOW_BEFORE && event.seq <= hit.seq + WINDOW_AFTER);
  return { sessionId: hit.sessionId, first: near[0], last: near[near.length - 1], hits: [hit] };
}

/** Windows of one session that overlap or touch become one. */
function mergeWindows(windows: Window[]): Window[] {
  const sorted = [...windows].sort((a, b) => a.sessionId.localeCompare(b.sessionId) || a.first.seq - b.first.seq);
  const merged: Window[] = [];
  for (const window of sorted) {
    const previous = merged[merged.length - 1];
    if (previous && previous.sessionId === window.sessionId && window.first.seq <= previous.last.seq + 1) {
      if (window.last.seq > previous.last.seq) previous.last = window.last;
      previous.hits.push(...window.hits);
    } else {
      merged.push({ ...window, hits: [...window.hits] });
    }
  }
  return merged;
}

function overlaps(a: { first: EventBound; last: EventBound }, b: { first: EventBound; last: EventBound }): boolean {
  return a.first.sessionId === b.first.sessionId && a.first.seq <= b.last.seq && b.first.seq <= a.last.seq;
}

function matchReason(words: string[], where: string): string {
  return `matches ${[...new Set(words)].sort().map((word) => `"${word}"`).join(', ')} in ${where}`;
}

function recallReason(count: number): string {
  return `recalled ${count} time${count === 1 ? '' : 's'} from an earlier projection`;
}

/** Ranges worth carrying, best first (ties: session, then position), at most `limit`. */
export function rankRanges(hits: Hit[], recalled: RecalledRange[], limit: number): RankedRange[] {
  const ranked: RankedRange[] = mergeWindows(hits.filter((hit) => hit.neighbours.length > 0).map(windowOf)).map((window) => {
    const relevances = window.hits.map((hit) => hit.relevance).sort((a, b) => b - a);
    const base = relevances[0] + OTHER_HITS_WEIGHT * relevances.slice(1).reduce((sum, value) => sum + value, 0);
    const recallCount = recalled.filter((range) => overlaps(range, window)).reduce((sum, range) => sum + range.recallCount, 0);
    const reasons = [
      matchReason(
        window.hits.flatMap((hit) => hit.matchedWords),
        `${window.hits.length} event${window.hits.length === 1 ? '' : 's'}`,
      ),
      ...(recallCount > 0 ? [recallReason(recallCount)] : []),
    ];
    const boost = 1 + RECALL_BOOST * Math.log1p(recallCount);
    return {
      first: window.first,
      last: window.last,
      score: base * boost,
      hits: window.hits
        .map((hit) => ({ seq: hit.seq, score: hit.relevance * boost, matchedWords: hit.matchedWords }))
        .sort((a, b) => b.score - a.score || a.seq - b.seq),
      tokenCount: rangeTokenCount(window.first, window.last),
      reason: reasons.join('; '),
    };
  });
  for (const range of recalled) {
    if (ranked.some((candidate) => overlaps(candidate, range))) continue;
    ranked.push({
      first: range.first,
      last: range.last,
      score: RECALLED_BASE_SCORE * (1 + RECALL_BOOST * Math.log1p(range.recallCount)),
      hits: [],
      tokenCount: rangeTokenCount(range.first, range.last),
      reason: recallReason(range.recallCount),
    });
  }
  return ranked
    .sort((a, b) => b.score - a.score || a.first.sessionId.localeCompare(b.first.sessionId) || a.first.seq - b.first.seq)
    .slice(0, limit);
}

/** A ranked recommendation: an event range, or a resource block or memory entry. */
export type RankedSource = ({ type: 'EVENTS' } & RankedRange) | { type: 'CONTENT'; hit: ContentHit; score: number; reason: string };

function contentKey(hit: ContentHit): string {
  return hit.kind === 'MEMORY' ? `memory ${hit.path}` : `resource ${hit.url} ${hit.blockId}`;
}

/** Ranges and content worth carrying, best first (ties: ranges first, then by address), at most `limit`. */
export function rankSources(hits: Hit[], recalled: RecalledRange[], content: ContentHit[], limit: number): RankedSource[] {
  const ranges = rankRanges(hits, recalled, limit).map((range): RankedSource => ({ type: 'EVENTS', ...range }));
  const contents = content.map(
    (hit): RankedSource => ({
      type: 'CONTENT',
      hit,
      score: hit.relevance,
      reason: matchReason(hit.matchedWords, hit.kind === 'MEMORY' ? `memory ${hit.path}` : `resource ${hit.url} block ${hit.blockId}`),
    }),
  );
  const tieKey = (source: RankedSource) => (source.type === 'CONTENT' ? `1 ${contentKey(source.hit)}` : '0');
  // A stable sort keeps the ranges in their own order among equal scores.
  return [...ranges, ...contents].sort((a, b) => b.score - a.score || tieKey(a).localeCompare(tieKey(b))).slice(0, limit);
}
