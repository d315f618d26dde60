import { ErrorCode, ErrorDetail, Outcome, fail, succeed } from '../../shared/errors';
import { DEFAULT_PAGE_SIZE, validatePageSize } from '../../shared/pagination';

/** Where a search looks: one session, the whole lineage tree of one, or the whole account. */
export const SearchScope = {
  SESSION: 'SESSION',
  LINEAGE: 'LINEAGE',
  ACCOUNT: 'ACCOUNT',
} as const;
export type SearchScope = (typeof SearchScope)[keyof typeof SearchScope];

/** Longest query accepted, in characters: a question or a few phrases, not a document. */
export const MAX_QUERY_LENGTH = 500;
/** Text search configuration of the stored vectors and of every query (one language for now). */
export const SEARCH_CONFIGURATION = 'english';
/** The most a hit's recency adds to its score: it orders hits of equal relevance, newest first, and little more. */
export const RECENCY_WEIGHT = 0.02;
/** Age at which the recency term has halved, in seconds (a week). */
export const RECENCY_HALF_LIFE_SECONDS = 7 * 24 * 3600;

/**
 * A query as the database reads it, in `websearch_to_tsquery` syntax: `strict` holds the quoted
 * phrases and `-word` exclusions, which every hit must satisfy; `anyWords` the plain words joined
 * by `or`, of which a hit needs only one. People type questions ("how often do we rotate the
 * signing keys?"), and the fact they look for rarely holds every word of the question.
 */
export interface ParsedSearchQuery {
  strict: string;
  anyWords: string;
}

/** The plain words of a parsed query, each of which a hit may hold. */
export function alternativeWords(query: ParsedSearchQuery): string[] {
  return query.anyWords ? query.anyWords.split(' or ') : [];
}

/**
 * Okapi BM25's term-frequency saturation and length normalization. A hit's score is the sum, over
 * the query's terms it holds, of the term's weight (its inverse document frequency in the area
 * searched) times `tf * (K1 + 1) / (tf + K1 * (1 - B + B * length / average length))`: repeating
 * a word adds little, and a long event needs a little more of a word to score as high as a short
 * one. Below the textbook 1.2 and 0.75, as measured on conversations (bench/recall.ts): there the
 * answer is the long turn that tells, and the short ones that name the same thing ("Still dreaming
 * about Kyoto, Ravi?") only ask. With the textbook values, hit@1 was 7 points lower and hit@5 2
 * lower on the generated conversations.
 */
export const BM25_K1 = 0.8;
export const BM25_B = 0.1;

/** A query term as the database normalized it (a lexeme), with its weight in the area searched. */
export interface WeightedTerm {
  lexeme: string;
  weight: number;
}

/**
 * A term's weight: its inverse document frequency among `documents` events of which `holding`
 * hold it, in the form that never goes negative (a word in most events still counts a little).
 * Rounded, so that a cursor carrying the weights scores every page exactly alike.
 */
export function termWeight(documents: number, holding: number): number {
  const containing = Math.min(holding, documents);
  return Number(Math.log(1 + (documents - containing + 0.5) / (containing + 0.5)).toFixed(6));
}

/**
 * Transcripts of several people write each message as "Speaker: text". The speaker is a field of
 * its own: a term naming the one who speaks adds its weight times this, beside what the text's
 * other mentions of it add ("Caroline: I went to a support group" answers a question about
 * Caroline better than "Melanie: Caroline, how are you?"). Measured on conversations: without the
 * field hit@1 was 7 points lower; counted as three more mentions of the name in the text (which
 * saturates with them), hit@10 was a point lower on both corpora.
 */
export const SPEAKER_WEIGHT = 3;
/** A speaker's name and its colon at the start of an event's text, as a POSIX regular expression. */
export const SPEAKER_PREFIX = '^[^:[:space:]]+( [^:[:space:]]+)?: ';

/**
 * The most a term can add to one hit's score, from the area's statistics: its weight times BM25's
 * saturation at the most frequent the term is in any event of the area (`mostFrequent`) and the
 * shortest event possible, plus the speaker's field when the term ever names the speaker. A word
 * found once per event, as most are, adds at most about its weight; the limit BM25 allows (K1 + 1
 * times it) would make every tier wider than the page needs.
 */
export function termScoreLimit(weight: number, mostFrequent: number, spoke: boolean): number {
  const frequency = Math.max(1, mostFrequent);
  return (weight * frequency * (BM25_K1 + 1)) / (frequency + BM25_K1 * (1 - BM25_B)) + (spoke ? weight * SPEAKER_WEIGHT : 0);
}

/** A term as tiers read it: its weight, and the most it can add to one hit's score. */
export interface TieredTerm extends WeightedTerm {
  limit: number;
}

/** Most distinct terms read in tiers; a longer query's hits are all ranked, exactly, in one pass. */
export const MAX_TIERED_TERMS = 10;

/**
 * The first tier of a large area holds the hits whose terms weigh at least this share of the
 * query's total: few events, holding most of what the question weighs, which usually decide the
 * page. A tier that falls short of a page is followed by one of this share of its threshold.
 */
export const FIRST_TIER_SHARE = 0.9;
export const SHORT_TIER_STEP = 0.7;

/** Sums of weights a tier compares with its threshold, taken apart again, lose a little to rounding. */
const WEIGHT_TOLERANCE = 1e-9;

/** A term as a tsquery operand: the lexeme quoted, so that the database takes it as it is. */
const operand = (lexeme: string) => `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/**
 * The tsquery text of the hits whose terms (of `terms`, heaviest first) weigh at least `threshold`
 * together, factored on the heaviest: those holding it and terms weighing the rest, or terms of the
 * rest weighing it all. Null when no hit can reach the threshold. A threshold no heavier than the
 * lightest term is any term at all.
 */
export function holdingWeight(threshold: number, terms: readonly WeightedTerm[]): string | null {
  if (terms.length === 0) return null;
  const total = terms.reduce((sum, term) => sum + term.weight, 0);
  if (total < threshold - WEIGHT_TOLERANCE) return null;
  const [first, ...rest] = terms;
  if (first.weight >= threshold - WEIGHT_TOLERANCE) {
    const others = holdingWeight(threshold, rest);
    return others === null ? operand(first.lexeme) : `${operand(first.lexeme)} | ${others}`;
  }
  const withFirst = holdingWeight(threshold - first.weight, rest);
  const withoutFirst = holdingWeight(threshold, rest);
  const holding = withFirst === null ? null : `${operand(first.lexeme)} & (${withFirst})`;
  return [holding, withoutFirst].filter((part): part is string => part !== null).join(' | ') || null;
}

/** Terms heaviest first (ties by lexeme), as tiers are factored. */
export function heaviestFirst<T extends WeightedTerm>(terms: readonly T[]): T[] {
  return [...terms].sort((a, b) => b.weight - a.weight || (a.lexeme < b.lexeme ? -1 : a.lexeme > b.lexeme ? 1 : 0));
}

/** Every subset of `terms` as its total weight and the most its terms can add to a score together. */
function subsets(terms: readonly TieredTerm[]): { weight: number; limit: number }[] {
  let all = [{ weight: 0, limit: 0 }];
  for (const term of terms) all = all.flatMap((subset) => [subset, { weight: subset.weight + term.weight, limit: subset.limit + term.limit }]);
  return all;
}

/**
 * The most a hit outside the tier of `threshold` can score: the terms it holds weigh less than the
 * threshold, so it scores at most the largest sum of their limits, and recency adds at most its weight.
 */
export function scoreBoundOutside(threshold: number, terms: readonly TieredTerm[]): number {
  const outside = subsets(terms).filter((subset) => subset.weight < threshold - WEIGHT_TOLERANCE);
  return Math.max(0, ...outside.map((subset) => subset.limit)) + RECENCY_WEIGHT;
}

/**
 * The next tier a large area reads after a tier of `threshold` gave `found` hits, the last of them
 * (the page's last, or the one that tells whether another page follows) scoring `lowest`: null when
 * that tier was exact (a full page none of the hits outside it can beat, or every match); else, for
 * a full page, the highest threshold whose hits outside cannot reach `lowest` (a tier holds the
 * tiers above it, so that one is exact), or, for a tier that fell short of a page, half of this
 * one. A threshold no heavier than the lightest term reads every match.
 */
export function nextThreshold(threshold: number, terms: readonly TieredTerm[], found: number, wanted: number, lowest: number | null): number | null {
  const lightest = Math.min(...terms.map((term) => term.weight));
  if (threshold <= lightest) return null;
  if (found < wanted || lowest === null) return Math.max(lightest, threshold * SHORT_TIER_STEP);
  if (lowest >= scoreBoundOutside(threshold, terms)) return null;
  // Tiers differ only at the weights subsets of the terms sum to: try those, heaviest first.
  const sums = [...new Set(subsets(terms).map((subset) => subset.weight))].filter((sum) => sum < threshold && sum >= lightest).sort((a, b) => b - a);
  return sums.find((sum) => lowest >= scoreBoundOutside(sum, terms)) ?? lightest;
}

/** Quoted phrases, then `-word` exclusions, then plain words; an unclosed quote runs to the end. */
const QUERY_PARTS = /"([^"]*)"?|(-?)([^\s"]+)/g;

/**
 * Splits a query the way people write one: quoted phrases and `-word` exclusions are strict,
 * plain words are alternatives. Fails with INVALID_INPUT for an empty or over-long query, or one
 * that only excludes.
 */
export function parseSearchQuery(query: string, path: string[] = ['query']): Outcome<ParsedSearchQuery> {
  const invalid = (message: string) => fail(ErrorCode.INVALID_INPUT, message, [{ path, message }]);
  if (query.length > MAX_QUERY_LENGTH) return invalid(`The query is longer than ${MAX_QUERY_LENGTH} characters.`);
  const phrases: string[] = [];
  const excluded: string[] = [];
  const words: string[] = [];
  for (const [, phrase, minus, word] of query.matchAll(QUERY_PARTS)) {
    if (phrase !== undefined) {
      if (phrase.trim()) phrases.push(phrase.trim());
    } else if (minus && word.length > 0) excluded.push(word);
    else if (word !== undefined && word !== '-') words.push(word);
  }
  if (phrases.length === 0 && words.length === 0) {
    return invalid(query.trim() ? 'The query only excludes words: name something to find.' : 'The query is empty: name something to find.');
  }
  return succeed({
    strict: [...phrases.map((phrase) => `"${phrase}"`), ...excluded.map((word) => `-${word}`)].join(' '),
    // The words `or` and `and` would read as operators; they carry nothing to search for anyway.
    anyWords: words.filter((word) => !/^(or|and)$/i.test(word)).join(' or '),
  });
}

/**
 * How a search scored its hits, kept by its cursors so that every page scores alike: the moment
 * recency was measured from, and the area's statistics the terms were weighed with (new events
 * change them between pages).
 */
export interface SearchScoring {
  scoredAt: Date;
  /** The query's terms in a stable order, with their weights. */
  terms: WeightedTerm[];
  /** Mean length of the area's events, in tokens. */
  averageLength: number;
}

/** Where a page of hits starts: after the hit with this score and id, scored the same way. */
export interface SearchCursor {
  scoring: SearchScoring;
  score: number;
  eventId: string;
}

const CURSOR_PREFIX = 'search2';

export function encodeSearchCursor(cursor: SearchCursor): string {
  const { scoring } = cursor;
  const body = [
    scoring.scoredAt.toISOString(),
    cursor.score,
    cursor.eventId,
    scoring.averageLength,
    scoring.terms.map((term) => [term.lexeme, term.weight]),
  ];
  return Buffer.from(`${CURSOR_PREFIX}:${JSON.stringify(body)}`, 'utf8').toString('base64url');
}

const isTerm = (value: unknown): value is [string, number] =>
  Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'number' && Number.isFinite(value[1]);

/** The cursor inside `text`, or null when it is not a cursor of this kind of search. */
export function decodeSearchCursor(text: string): SearchCursor | null {
  const decoded = Buffer.from(text, 'base64url').toString('utf8');
  if (!decoded.startsWith(`${CURSOR_PREFIX}:`)) return null;
  try {
    const [scoredAt, score, eventId, averageLength, terms] = JSON.parse(decoded.slice(CURSOR_PREFIX.length + 1)) as unknown[];
    const at = new Date(String(scoredAt));
    if (typeof score !== 'number' || !Number.isFinite(score) || typeof eventId !== 'string' || Number.isNaN(at.getTime())) return null;
    if (typeof averageLength !== 'number' || !(averageLength > 0) || !Array.isArray(terms) || !terms.every(isTerm)) return null;
    return {
      scoring: {
        scoredAt: at,
        averageLength,
        terms: terms.map(([lexeme, weight]) => ({ lexeme, weight })),
      },
      score,
      eventId,
    };
  } catch {
    return null;
  }
}

export interface SearchArgs {
  query: string;
  sessionId?: string | null;
  scope?: SearchScope | null;
  first?: number | null;
  after?: string | null;
  /** Leaves out this session's events from this seq on: the request an agent is answering, and its own turn. */
  excludeFrom?: { sessionId: string; seq: number } | null;
}

export interface ValidSearch {
  parsed: ParsedSearchQuery;
  scope: SearchScope;
  sessionId: string | null;
  first: number;
  after: SearchCursor | null;
  excludeFrom: { sessionId: string; seq: number } | null;
}

/**
 * Checks a search's arguments. The scope defaults to the session's lineage when a session is
 * given and to the account otherwise; SESSION and LINEAGE need a session.
 */
export function validateSearch(args: SearchArgs): Outcome<ValidSearch> {
  const parsed = parseSearchQuery(args.query);
  const details: ErrorDetail[] = [...(parsed.ok ? [] : parsed.error.details), ...validatePageSize('first', args.first)];
  const scope = args.scope ?? (args.sessionId ? SearchScope.LINEAGE : SearchScope.ACCOUNT);
  if (scope !== SearchScope.ACCOUNT && !args.sessionId) {
    details.push({
      path: ['sessionId'],
      message: `A ${scope} search needs the sessionId it searches from.`,
    });
  }
  const after = args.after == null ? null : decodeSearchCursor(args.after);
  if (args.after != null && !after) details.push({ path: ['after'], message: 'Not a cursor of this search.' });
  if (details.length > 0 || !parsed.ok) return fail(ErrorCode.INVALID_INPUT, details[0].message, details);
  return succeed({
    parsed: parsed.value,
    scope,
    sessionId: args.sessionId ?? null,
    first: args.first ?? DEFAULT_PAGE_SIZE,
    after,
    excludeFrom: args.excludeFrom ?? null,
  });
}

/** Makes a snippet safe to show as HTML: its text escaped, the database's match markers made `<mark>` tags. */
export function markSnippet(headline: string, start: string, stop: string): string {
  const escaped = headline.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
  return escaped.split(start).join('<mark>').split(stop).join('</mark>');
}
