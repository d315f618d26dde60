import { ErrorCode, ErrorDetail, Outcome, fail, succeed } from '../../shared/errors';
import { DEFAULT_PAGE_SIZE, validatePageSize } from '../../shared/pagination';

/** Where a search looks: one session, the whole lineage tree of one, or the whole account. */
export const SearchScope = { SESSION: 'SESSION', LINEAGE: 'LINEAGE', ACCOUNT: 'ACCOUNT' } as const;
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
 * signing keys?"), and the fact they look for rarely holds every word of the question; ranking
 * (`ts_rank_cd`, cover density) puts hits that hold more of the words, closer together, first.
 */
export interface ParsedSearchQuery {
  strict: string;
  anyWords: string;
}

/**
 * How hits are ordered: first by how many of the query's plain words they hold, then by cover
 * density (`ts_rank_cd`, normalized by length, mapped below 1) and a small recency term. A hit
 * holding more of the words always ranks above one holding fewer, so a page can be read from the
 * hits holding at least m words whenever there are enough of them: the database ranks the few
 * hits holding most of a question instead of every event holding any one of its words.
 */
export const RANK_SHARE = 1 - RECENCY_WEIGHT;
/** Most distinct words ranked in tiers; the hits of a longer query are all ranked, exactly, in one. */
export const MAX_TIERED_WORDS = 10;

/** The plain words of a parsed query, each of which a hit may hold. */
export function alternativeWords(query: ParsedSearchQuery): string[] {
  return query.anyWords ? query.anyWords.split(' or ') : [];
}

/** A word as a tsquery operand: the database may have split it into parts joined by `&`. */
const operand = (word: string) => `(${word})`;

/**
 * The tsquery text holding the hits with at least `minimum` of `words`, factored on the first word:
 * those holding it and `minimum - 1` of the rest, or `minimum` of the rest. Against listing every
 * combination, the index checks each candidate in about half the time (measured at 1,000,000 events),
 * since a candidate lacking the first word skips everything that needs it.
 */
function holdingAtLeast(minimum: number, words: string[]): string {
  if (minimum === words.length) return words.map(operand).join(' & ');
  const [first, ...rest] = words;
  const withFirst = minimum === 1 ? operand(first) : `${operand(first)} & (${holdingAtLeast(minimum - 1, rest)})`;
  return `${withFirst} | ${holdingAtLeast(minimum, rest)}`;
}

/**
 * The tsquery texts of the tiers a search reads, strictest first: the hits holding all of
 * `words` (each the tsquery text of one word, as the database normalized it), then all but one,
 * and so on down to any one of them. One tier, any word, when there are more than
 * {@link MAX_TIERED_WORDS}; none when there are no words (a search of phrases only).
 */
export function matchTiers(words: string[]): string[] {
  if (words.length === 0) return [];
  if (words.length > MAX_TIERED_WORDS) return [holdingAtLeast(1, words)];
  return Array.from({ length: words.length }, (_, index) => holdingAtLeast(words.length - index, words));
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

/** Where a page of hits starts: after the hit with this score and id, scored at the same moment. */
export interface SearchCursor {
  /** The moment recency was measured from, kept so that every page of one search scores alike. */
  scoredAt: Date;
  score: number;
  eventId: string;
}

const CURSOR_PREFIX = 'search';

export function encodeSearchCursor(cursor: SearchCursor): string {
  return Buffer.from(`${CURSOR_PREFIX}:${JSON.stringify([cursor.scoredAt.toISOString(), cursor.score, cursor.eventId])}`, 'utf8').toString(
    'base64url',
  );
}

/** The cursor inside `text`, or null when it is not a search cursor. */
export function decodeSearchCursor(text: string): SearchCursor | null {
  const decoded = Buffer.from(text, 'base64url').toString('utf8');
  if (!decoded.startsWith(`${CURSOR_PREFIX}:`)) return null;
  try {
    const [scoredAt, score, eventId] = JSON.parse(decoded.slice(CURSOR_PREFIX.length + 1)) as unknown[];
    const at = new Date(String(scoredAt));
    if (typeof score !== 'number' || !Number.isFinite(score) || typeof eventId !== 'string' || Number.isNaN(at.getTime())) return null;
    return { scoredAt: at, score, eventId };
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
    details.push({ path: ['sessionId'], message: `A ${scope} search needs the sessionId it searches from.` });
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
