import { EntityManager } from 'typeorm';
import {
  BM25_B,
  BM25_K1,
  FIRST_TIER_SHARE,
  MAX_TIERED_TERMS,
  ParsedSearchQuery,
  RECENCY_HALF_LIFE_SECONDS,
  RECENCY_WEIGHT,
  SEARCH_CONFIGURATION,
  SPEAKER_PREFIX,
  SPEAKER_WEIGHT,
  SearchCursor,
  SearchScope,
  SearchScoring,
  TieredTerm,
  alternativeWords,
  heaviestFirst,
  holdingWeight,
  markSnippet,
  nextThreshold,
  termScoreLimit,
  termWeight,
} from './search';
import { EventEntity } from '../conversation/event.entity';
import { columnList, entityFromRow } from '../../platform/db/rows';

/** Where the events searched live: a session, every session sharing an origin, or the account. */
export type SearchArea =
  | { scope: typeof SearchScope.SESSION; sessionId: string }
  | { scope: typeof SearchScope.LINEAGE; originId: string }
  | { scope: typeof SearchScope.ACCOUNT };

export interface EventSearchQuery {
  accountId: string;
  area: SearchArea;
  query: ParsedSearchQuery;
  /** Recency is measured from here, unless `after` carries the first page's scoring. */
  scoredAt: Date;
  after: SearchCursor | null;
  /** Hits to return; one more is read to know whether another page follows. */
  first: number;
  /** This session's events from this seq on are left out. */
  excludeFrom: { sessionId: string; seq: number } | null;
}

export interface EventSearchHit {
  event: EventEntity;
  score: number;
  /** HTML-safe text around the matches, matched terms in `<mark>`. */
  snippet: string;
}

export interface EventSearchPage {
  hits: EventSearchHit[];
  hasNextPage: boolean;
  /** How the hits were scored, for the cursors of the next pages. */
  scoring: SearchScoring;
}

// Characters that text never holds, marking matches until the snippet is escaped for HTML.
const MATCH_START = '\u0002';
const MATCH_STOP = '\u0003';
const HEADLINE_OPTIONS = `StartSel=${MATCH_START}, StopSel=${MATCH_STOP}, MaxWords=30, MinWords=12, ShortWord=2, MaxFragments=2, FragmentDelimiter=" … "`;

/**
 * The query from its strict part ($2) and its alternative words ($3), either of which may be
 * empty: written out where it is used, so that the planner sees a constant it can look up in the
 * GIN index and estimate, rather than a value computed at run time.
 */
const TSQUERY = `CASE WHEN $2 = '' THEN websearch_to_tsquery('${SEARCH_CONFIGURATION}', $3)
                      WHEN $3 = '' THEN websearch_to_tsquery('${SEARCH_CONFIGURATION}', $2)
                      ELSE websearch_to_tsquery('${SEARCH_CONFIGURATION}', $2) && websearch_to_tsquery('${SEARCH_CONFIGURATION}', $3) END`;

/** The condition restricting hits to `area`, its one value sent as the statement's `parameter`. */
function areaCondition(area: SearchArea, parameter: string): { sql: string; value: string | null } {
  switch (area.scope) {
    case SearchScope.SESSION:
      return {
        sql: `hit.session_id = ${parameter}::uuid`,
        value: area.sessionId,
      };
    case SearchScope.LINEAGE:
      return {
        sql: `hit.session_id IN (SELECT id FROM sessions WHERE origin_id = ${parameter}::uuid AND account_id = $1)`,
        value: area.originId,
      };
    case SearchScope.ACCOUNT:
      return { sql: `${parameter}::uuid IS NULL`, value: null };
  }
}

/**
 * The hits a tier reads: those of the strict part ($2) and of the tier's words (`parameter`),
 * either of which may be empty; written out where it is used, like {@link TSQUERY}.
 */
function tierTsquery(parameter: string): string {
  return `CASE WHEN ${parameter} = '' THEN websearch_to_tsquery('${SEARCH_CONFIGURATION}', $2)
               WHEN $2 = '' THEN ${parameter}::tsquery
               ELSE websearch_to_tsquery('${SEARCH_CONFIGURATION}', $2) && ${parameter}::tsquery END`;
}

/**
 * Up to this many events in the area, a search ranks every match at once: there are few, and one
 * pass costs less than the tiers' extra statements.
 */
const RANK_EVERY_MATCH_BELOW_EVENTS = 5_000;

/** The sessions of an area, as a condition on `alias.session_id` (an area's one value is `parameter`). */
function areaSessions(area: SearchArea, alias: string, parameter: string): string {
  switch (area.scope) {
    case SearchScope.SESSION:
      return `${alias}.session_id = ${parameter}::uuid`;
    case SearchScope.LINEAGE:
      return `${alias}.session_id IN (SELECT id FROM sessions WHERE origin_id = ${parameter}::uuid AND account_id = $1)`;
    case SearchScope.ACCOUNT:
      return `${parameter}::uuid IS NULL`;
  }
}

/** The area's sessions with their counters, as SQL. */
function areaTotals(area: SearchArea, parameter: string): string {
  switch (area.scope) {
    case SearchScope.SESSION:
      return `SELECT event_count, token_count FROM sessions WHERE id = ${parameter}::uuid AND account_id = $1`;
    case SearchScope.LINEAGE:
      return `SELECT event_count, token_count FROM sessions WHERE origin_id = ${parameter}::uuid AND account_id = $1`;
    case SearchScope.ACCOUNT:
      return `SELECT event_count, token_count FROM sessions WHERE account_id = $1 AND ${parameter}::uuid IS NULL`;
  }
}

/**
 * Above this share of the table's events, an account's search leaves the account out of the index
 * scan. The index's list for such an account holds nearly every row: intersecting the words' lists
 * with it costs more than checking the account on each hit (at 1,000,000 events in one account,
 * about half of each tier's index time).
 */
const ACCOUNT_INDEXED_UP_TO_SHARE = 0.5;

/** What the search statement is written from. */
interface SearchShape {
  /** The query's terms (its words and phrases as the database normalizes them) with their weights in the area. */
  scoring: SearchScoring;
  /** The lexemes of the plain words (not of the phrases). */
  plainLexemes: string[];
  /** Lexemes no event of the area holds. */
  absentLexemes: string[];
  /** The most times one event of the area holds each lexeme, and whether it ever names the speaker. */
  mostFrequent: Map<string, { times: number; spoken: boolean }>;
  /** More events in the area than a single ranking pass suits: the page is read in tiers. */
  large: boolean;
  /** Whether the index scan intersects the words' lists with the account's. */
  accountIndexed: boolean;
}

/**
 * The area's statistics for `lexemes`: how many events it holds, how long they are on average, and
 * how many of them hold each lexeme (the per-session counts the events' trigger keeps, summed).
 */
export function areaStatisticsSql(area: SearchArea, parameter: string, lexemes: string): string {
  // With no lexemes there is nothing to weigh, and the area's size does not matter.
  return `SELECT coalesce(max(totals.documents), 0) AS documents, coalesce(max(totals.tokens), 0) AS tokens,
                 coalesce(array_agg(counted.holding ORDER BY queried.position), '{}') AS holding,
                 coalesce(array_agg(counted.most_frequent ORDER BY queried.position), '{}') AS most_frequent,
                 coalesce(array_agg(counted.spoken ORDER BY queried.position), '{}') AS spoken
          FROM unnest(${lexemes}::text[]) WITH ORDINALITY AS queried (lexeme, position)
          CROSS JOIN LATERAL (
            SELECT coalesce(sum(term.documents), 0) AS holding, coalesce(max(term.most_frequent), 0) AS most_frequent, coalesce(bool_or(term.spoken), false) AS spoken
            FROM search_terms term
            WHERE term.account_id = $1 AND term.lexeme = queried.lexeme AND ${areaSessions(area, 'term', parameter)}
          ) counted
          CROSS JOIN (SELECT coalesce(sum(event_count), 0) AS documents, coalesce(sum(token_count), 0) AS tokens FROM (${areaTotals(area, parameter)}) area) totals`;
}

/** An area's statistics as the database returns them. */
export interface AreaStatistics {
  documents: string | number;
  tokens: string | number;
  holding: (string | number)[];
  most_frequent: number[];
  spoken: boolean[];
}

/** Weights of `lexemes` from an area's statistics, and the mean length of its events. */
export function weighTerms(
  lexemes: string[],
  statistics: {
    documents: string | number;
    tokens: string | number;
    holding: (string | number)[];
  },
): SearchScoring['terms'] {
  const documents = Number(statistics.documents);
  return lexemes.map((lexeme, index) => ({
    lexeme,
    weight: termWeight(documents, Number(statistics.holding[index])),
  }));
}

export function meanLength(statistics: { documents: string | number; tokens: string | number }): number {
  const documents = Number(statistics.documents);
  return documents > 0 ? Math.max(1, Number((Number(statistics.tokens) / documents).toFixed(3))) : 1;
}

async function searchShape(manager: EntityManager, search: EventSearchQuery, areaValue: string | null): Promise<SearchShape> {
  // The account's share is the planner's statistics (the most common accounts of the table), which
  // name only accounts holding a large share, and none before the table is first analyzed.
  const lexemesOf = (text: string) => `ARRAY(SELECT DISTINCT unnest(tsvector_to_array(to_tsvector('${SEARCH_CONFIGURATION}', ${text}))) ORDER BY 1)`;
  const [row]: ({ lexemes: string[]; plain: string[]; account_share: number | null } & AreaStatistics)[] = await manager.query(
    `WITH queried AS (SELECT ${lexemesOf('$2')} AS lexemes)
     SELECT queried.lexemes, ${lexemesOf('$4')} AS plain, statistics.*,
            (SELECT common.share
             FROM pg_stats stats, unnest(stats.most_common_vals::text::uuid[], stats.most_common_freqs) AS common (account_id, share)
             WHERE stats.schemaname = current_schema() AND stats.tablename = 'events' AND stats.attname = 'account_id'
               AND common.account_id = $1) AS account_share
     FROM queried CROSS JOIN LATERAL (${areaStatisticsSql(search.area, '$3', 'queried.lexemes')}) statistics`,
    [search.accountId, scoredText(search.query), areaValue, alternativeWords(search.query).join(' ')],
  );
  const known = search.after?.scoring;
  return {
    // A later page weighs the terms as the first page did.
    scoring: known ?? {
      scoredAt: search.scoredAt,
      terms: weighTerms(row.lexemes, row),
      averageLength: meanLength(row),
    },
    plainLexemes: row.plain,
    absentLexemes: row.lexemes.filter((_, index) => Number(row.holding[index]) === 0),
    mostFrequent: new Map(row.lexemes.map((lexeme, index) => [lexeme, { times: row.most_frequent[index], spoken: row.spoken[index] }])),
    large: Number(row.documents) > RANK_EVERY_MATCH_BELOW_EVENTS,
    accountIndexed: (row.account_share ?? 0) <= ACCOUNT_INDEXED_UP_TO_SHARE,
  };
}

/** The text whose terms are scored: the plain words and the quoted phrases (not the exclusions). */
function scoredText(query: ParsedSearchQuery): string {
  const phrases = [...query.strict.matchAll(/"([^"]*)"/g)].map((match) => match[1]);
  return [...alternativeWords(query), ...phrases].join(' ');
}

/**
 * The BM25 score of the event `alias` for the terms `$lexemes` weighted `$weights`, in an area whose
 * events are `averageLength` tokens long on average: a term's frequency is the number of positions
 * the event's vector holds for it, an event's length its token count.
 */
export function bm25Sql(alias: string, lexemes: string, weights: string, averageLength: string): string {
  // The speaker's name, when the event begins with one, is its first word (position 1): a field of its own.
  const spoken = `(${alias}.text ~ '${SPEAKER_PREFIX}' AND entry.positions[1] = 1)`;
  return `(SELECT coalesce(sum(term.weight * (${SPEAKER_WEIGHT} * term.spoken::int + term.frequency * ${BM25_K1 + 1}
                              / (term.frequency + ${BM25_K1} * (${1 - BM25_B} + ${BM25_B} * ${alias}.token_count / ${averageLength})))), 0)
           FROM (SELECT queried.weight, ${spoken} AS spoken,
                        coalesce(array_length(entry.positions, 1), 1) - CASE WHEN ${spoken} THEN 1 ELSE 0 END AS frequency
                 FROM unnest(${alias}.search_vector) entry
                 JOIN unnest(${lexemes}::text[], ${weights}::float8[]) AS queried (lexeme, weight) ON queried.lexeme = entry.lexeme) term)`;
}

/**
 * One page of the account's events matching `query` in `area`, best first: by BM25 over the
 * query's words and phrases, each weighted by how rare it is in the area searched (its own
 * statistics: the session's, the lineage's or the account's), plus a small recency term, ties
 * broken by id. A large area's page comes from tiers: the hits whose terms weigh at least half
 * the query's, and, only when hits outside that tier could still score above the page's last,
 * the wider tier they could not (see `nextThreshold`): each page is exactly the one ranking every
 * match would give. A small area ranks every match in one pass.
 */
export async function searchEvents(manager: EntityManager, search: EventSearchQuery): Promise<EventSearchPage> {
  const area = areaCondition(search.area, '$6');
  const shape = await searchShape(manager, search, area.value);
  const { scoring } = shape;
  const terms = heaviestFirst(scoring.terms);
  // The plain words' terms decide the tiers; a phrase's terms are scored, but every hit holds them already.
  // A term no event of the area holds decides nothing (and would weigh the most).
  const limited = terms.map((term): TieredTerm => {
    const most = shape.mostFrequent.get(term.lexeme);
    return { ...term, limit: most ? termScoreLimit(term.weight, most.times, most.spoken) : 0 };
  });
  const plain = limited.filter((term) => shape.plainLexemes.includes(term.lexeme) && !shape.absentLexemes.includes(term.lexeme));
  const phraseLimit = limited.filter((term) => !shape.plainLexemes.includes(term.lexeme)).reduce((sum, term) => sum + term.limit, 0);
  // Written where the planner cannot take it for an index condition when the account is most of the table.
  const account = shape.accountIndexed ? 'hit.account_id = $1' : '(hit.account_id = $1) IS TRUE';
  const limit = search.first + 1;
  const readTier = async (tier: string): Promise<Record<string, unknown>[]> =>
    manager.query(
      `WITH page AS MATERIALIZED (
         SELECT id, score FROM (
           SELECT hit.id,
                  ${bm25Sql('hit', '$11', '$12', '$13')}
                    + ${RECENCY_WEIGHT} * power(0.5, greatest(0, extract(epoch FROM $4::timestamptz - hit.created_at)) / ${RECENCY_HALF_LIFE_SECONDS}) AS score
           FROM events hit
           WHERE ${account} AND hit.search_vector @@ ${tierTsquery('$14')} AND ${area.sql}
             AND ($9::uuid IS NULL OR NOT (hit.session_id = $9::uuid AND hit.seq >= $10::int))
         ) scored
         WHERE $7::float8 IS NULL OR (score, id) < ($7::float8, $8::uuid)
         ORDER BY score DESC, id DESC
         LIMIT $5)
       SELECT ${columnList(manager, EventEntity, 'event')}, page.score,
              ts_headline('${SEARCH_CONFIGURATION}', coalesce(event.text, ''), ${TSQUERY}, '${HEADLINE_OPTIONS}') AS headline
       FROM page JOIN events event ON event.id = page.id
       ORDER BY page.score DESC, page.id DESC`,
      [
        search.accountId,
        search.query.strict,
        search.query.anyWords,
        scoring.scoredAt,
        limit,
        area.value,
        search.after?.score ?? null,
        search.after?.eventId ?? null,
        search.excludeFrom?.sessionId ?? null,
        search.excludeFrom?.seq ?? null,
        terms.map((term) => term.lexeme),
        terms.map((term) => term.weight),
        scoring.averageLength,
        tier,
      ],
    );
  let rows: Record<string, unknown>[];
  if (!shape.large || plain.length === 0 || plain.length > MAX_TIERED_TERMS) {
    rows = await readTier(holdingWeight(0, plain) ?? '');
  } else {
    let threshold: number | null = FIRST_TIER_SHARE * plain.reduce((sum, term) => sum + term.weight, 0);
    do {
      rows = await readTier(holdingWeight(threshold, plain) ?? '');
      const lowest = rows.length ? Number(rows[rows.length - 1].score) - phraseLimit : null;
      threshold = nextThreshold(threshold, plain, rows.length, limit, lowest);
    } while (threshold !== null);
  }
  const hits = rows.slice(0, search.first).map((row) => ({
    event: entityFromRow(manager, EventEntity, row),
    score: Number(row.score),
    snippet: markSnippet(row.headline as string, MATCH_START, MATCH_STOP),
  }));
  return { hits, hasNextPage: rows.length > search.first, scoring };
}

/**
 * Every match of the search in its area: an exact count, whose cost follows the matches (each is
 * read), which is why it is made only when asked for.
 */
export async function countHits(manager: EntityManager, search: Omit<EventSearchQuery, 'scoredAt' | 'after' | 'first'>): Promise<number> {
  const area = areaCondition(search.area, '$4');
  const [row] = await manager.query(
    `SELECT count(*)::int AS total_count FROM events hit
     WHERE hit.account_id = $1 AND hit.search_vector @@ ${TSQUERY} AND ${area.sql}
       AND ($5::uuid IS NULL OR NOT (hit.session_id = $5::uuid AND hit.seq >= $6::int))`,
    [
      search.accountId,
      search.query.strict,
      search.query.anyWords,
      area.value,
      search.excludeFrom?.sessionId ?? null,
      search.excludeFrom?.seq ?? null,
    ],
  );
  return row.total_count as number;
}
