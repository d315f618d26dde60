import { EntityManager } from 'typeorm';
import {
  ParsedSearchQuery,
  RANK_SHARE,
  RECENCY_HALF_LIFE_SECONDS,
  RECENCY_WEIGHT,
  SEARCH_CONFIGURATION,
  SearchCursor,
  SearchScope,
  alternativeWords,
  markSnippet,
  matchTiers,
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
  /** Recency is measured from here: the same moment for every page of one search. */
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
      return { sql: `hit.session_id = ${parameter}::uuid`, value: area.sessionId };
    case SearchScope.LINEAGE:
      return { sql: `hit.session_id IN (SELECT id FROM sessions WHERE origin_id = ${parameter}::uuid AND account_id = $1)`, value: area.originId };
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
 * pass plans faster than the tiers. Beyond it the tiers cost less (at 10,000 events, the same p50
 * and half the p99 of ranking every match).
 */
const RANK_EVERY_MATCH_BELOW_EVENTS = 5_000;
/** Sessions summed to tell a large area from a small one: enough to pass the threshold above. */
const SIZED_SESSIONS = 2_000;

/** The events of an area, from its sessions' counts (of at most {@link SIZED_SESSIONS} of them), as SQL. */
function areaSize(area: SearchArea, parameter: string): string {
  switch (area.scope) {
    case SearchScope.SESSION:
      return `coalesce((SELECT event_count FROM sessions WHERE id = ${parameter}::uuid AND account_id = $1), 0)`;
    case SearchScope.LINEAGE:
      return `coalesce((SELECT sum(event_count) FROM (SELECT event_count FROM sessions WHERE origin_id = ${parameter}::uuid AND account_id = $1 LIMIT ${SIZED_SESSIONS}) sized), 0)`;
    case SearchScope.ACCOUNT:
      return `coalesce((SELECT sum(event_count) FROM (SELECT event_count FROM sessions WHERE account_id = $1 LIMIT ${SIZED_SESSIONS}) sized), 0)`;
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
  /** Each distinct plain word of the query as the database normalizes it (stop words have none), in a stable order. */
  words: string[];
  /** More events in the area than a single ranking pass suits: the page is read in tiers. */
  large: boolean;
  /** Whether the index scan intersects the words' lists with the account's. */
  accountIndexed: boolean;
}

async function searchShape(manager: EntityManager, search: EventSearchQuery, areaValue: string | null): Promise<SearchShape> {
  const typed = [...new Set(alternativeWords(search.query))];
  // The account's share is the planner's statistics (the most common accounts of the table), which
  // name only accounts holding a large share, and none before the table is first analyzed.
  const [row]: { words: string[]; area_events: string; account_share: number | null }[] = await manager.query(
    `SELECT ARRAY(SELECT plainto_tsquery('${SEARCH_CONFIGURATION}', typed)::text FROM unnest($2::text[]) typed) AS words,
            ${areaSize(search.area, '$3')} AS area_events,
            (SELECT common.share
             FROM pg_stats stats, unnest(stats.most_common_vals::text::uuid[], stats.most_common_freqs) AS common (account_id, share)
             WHERE stats.schemaname = current_schema() AND stats.tablename = 'events' AND stats.attname = 'account_id'
               AND common.account_id = $1) AS account_share`,
    areaValue === null ? [search.accountId, typed] : [search.accountId, typed, areaValue],
  );
  return {
    words: [...new Set(row.words.filter((word) => word !== ''))].sort(),
    large: Number(row.area_events) > RANK_EVERY_MATCH_BELOW_EVENTS,
    accountIndexed: (row.account_share ?? 0) <= ACCOUNT_INDEXED_UP_TO_SHARE,
  };
}

/**
 * One page of the account's events matching `query` in `area`, best first: by how many of the
 * words a hit holds, then cover density (`ts_rank_cd`, normalized by document length so that long
 * tool output does not win by bulk) and a small recency term, ties broken by id. A large area's
 * page comes from the strictest tier (hits holding every word, then one fewer, down to any one)
 * that fills it: since a hit holding more words always ranks first, that page is the exact one.
 * The tiers are one statement whose later parts run only when the earlier ones fall short; a small
 * area ranks every match in one pass.
 */
export async function searchEvents(manager: EntityManager, search: EventSearchQuery): Promise<EventSearchPage> {
  const area = areaCondition(search.area, '$6');
  const shape = await searchShape(manager, search, area.value);
  const { words } = shape;
  // Phrases only, or only stop words beside phrases: the strict part alone decides.
  const allTiers = words.length ? matchTiers(words) : [''];
  const tiers = shape.large ? allTiers : allTiers.slice(-1);
  // Written where the planner cannot take it for an index condition when the account is most of the table.
  const account = shape.accountIndexed ? 'hit.account_id = $1' : '(hit.account_id = $1) IS TRUE';
  const tierParameter = (index: number) => `$${12 + index}`;
  const scoredTier = (index: number) => `SELECT id, score FROM (
         SELECT hit.id,
                (SELECT count(*) FROM unnest($11::tsquery[]) word WHERE hit.search_vector @@ word)
                  + ${RANK_SHARE} * ranked.rank / (1 + ranked.rank)
                  + ${RECENCY_WEIGHT} * power(0.5, greatest(0, extract(epoch FROM $4::timestamptz - hit.created_at)) / ${RECENCY_HALF_LIFE_SECONDS}) AS score
         FROM events hit
         CROSS JOIN LATERAL (SELECT ts_rank_cd(hit.search_vector, ${TSQUERY}, 1) AS rank) ranked
         WHERE ${account} AND hit.search_vector @@ ${tierTsquery(tierParameter(index))} AND ${area.sql}
           AND ($9::uuid IS NULL OR NOT (hit.session_id = $9::uuid AND hit.seq >= $10::int))
       ) scored
       WHERE $7::float8 IS NULL OR (score, id) < ($7::float8, $8::uuid)
       ORDER BY score DESC, id DESC
       LIMIT $5`;
  // A tier is read when every stricter one fell short of a page, the last whatever it holds.
  const shortOf = (index: number) => Array.from({ length: index }, (_, earlier) => `(SELECT count(*) FROM tier${earlier}) < $5`);
  const chosen = tiers.map((_, index) => {
    const conditions = index === tiers.length - 1 ? shortOf(index) : [...shortOf(index), `(SELECT count(*) FROM tier${index}) = $5`];
    return `SELECT id, score FROM tier${index}${conditions.length ? ` WHERE ${conditions.join(' AND ')}` : ''}`;
  });
  const rows: Record<string, unknown>[] = await manager.query(
    `WITH ${tiers.map((_, index) => `tier${index} AS MATERIALIZED (${scoredTier(index)})`).join(',\n     ')},
     page AS (${chosen.join('\n       UNION ALL ')})
     SELECT ${columnList(manager, EventEntity, 'event')}, page.score,
            ts_headline('${SEARCH_CONFIGURATION}', coalesce(event.text, ''), ${TSQUERY}, '${HEADLINE_OPTIONS}') AS headline
     FROM page JOIN events event ON event.id = page.id
     ORDER BY page.score DESC, page.id DESC`,
    [
      search.accountId,
      search.query.strict,
      search.query.anyWords,
      search.scoredAt,
      search.first + 1,
      area.value,
      search.after?.score ?? null,
      search.after?.eventId ?? null,
      search.excludeFrom?.sessionId ?? null,
      search.excludeFrom?.seq ?? null,
      words,
      ...tiers,
    ],
  );
  const hits = rows.slice(0, search.first).map((row) => ({
    event: entityFromRow(manager, EventEntity, row),
    score: Number(row.score),
    snippet: markSnippet(row.headline as string, MATCH_START, MATCH_STOP),
  }));
  return { hits, hasNextPage: rows.length > search.first };
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
    [search.accountId, search.query.strict, search.query.anyWords, area.value, search.excludeFrom?.sessionId ?? null, search.excludeFrom?.seq ?? null],
  );
  return row.total_count as number;
}
