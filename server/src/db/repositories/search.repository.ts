import { EntityManager } from 'typeorm';
import {
  ParsedSearchQuery,
  RECENCY_HALF_LIFE_SECONDS,
  RECENCY_WEIGHT,
  SEARCH_CONFIGURATION,
  SearchCursor,
  SearchScope,
  markSnippet,
} from '../../domain/search';
import { EventEntity } from '../entities/event.entity';
import { columnList, entityFromRow } from '../rows';

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
  totalCount: number;
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
 * One page of the account's events matching `query` in `area`, best first: cover density
 * (`ts_rank_cd`, normalized by document length so that long tool output does not win by bulk)
 * plus a small recency term, ties broken by id. Counts every match of the area once.
 */
export async function searchEvents(manager: EntityManager, search: EventSearchQuery): Promise<EventSearchPage> {
  const area = areaCondition(search.area, '$6');
  const rows: Record<string, unknown>[] = await manager.query(
    `WITH hits AS MATERIALIZED (
       SELECT hit.id, ts_rank_cd(hit.search_vector, ${TSQUERY}, 1)
                + ${RECENCY_WEIGHT} * power(0.5, greatest(0, extract(epoch FROM $4::timestamptz - hit.created_at)) / ${RECENCY_HALF_LIFE_SECONDS}) AS score
       FROM events hit
       WHERE hit.account_id = $1 AND hit.search_vector @@ ${TSQUERY} AND ${area.sql}
         AND ($9::uuid IS NULL OR NOT (hit.session_id = $9::uuid AND hit.seq >= $10::int))
     ),
     page AS (
       SELECT id, score FROM hits
       WHERE $7::float8 IS NULL OR (score, id) < ($7::float8, $8::uuid)
       ORDER BY score DESC, id DESC
       LIMIT $5
     )
     SELECT ${columnList(manager, EventEntity, 'event')}, page.score,
            ts_headline('${SEARCH_CONFIGURATION}', coalesce(event.text, ''), ${TSQUERY}, '${HEADLINE_OPTIONS}') AS headline,
            (SELECT count(*)::int FROM hits) AS total_count
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
    ],
  );
  const totalCount = rows.length ? (rows[0].total_count as number) : await countHits(manager, search);
  const hits = rows.slice(0, search.first).map((row) => ({
    event: entityFromRow(manager, EventEntity, row),
    score: Number(row.score),
    snippet: markSnippet(row.headline as string, MATCH_START, MATCH_STOP),
  }));
  return { hits, hasNextPage: rows.length > search.first, totalCount };
}

/** The matches of an area when the page itself is empty (past the last hit, or `first: 0`). */
async function countHits(manager: EntityManager, search: EventSearchQuery): Promise<number> {
  const area = areaCondition(search.area, '$4');
  const [row] = await manager.query(
    `SELECT count(*)::int AS total_count FROM events hit
     WHERE hit.account_id = $1 AND hit.search_vector @@ ${TSQUERY} AND ${area.sql}
       AND ($5::uuid IS NULL OR NOT (hit.session_id = $5::uuid AND hit.seq >= $6::int))`,
    [search.accountId, search.query.strict, search.query.anyWords, area.value, search.excludeFrom?.sessionId ?? null, search.excludeFrom?.seq ?? null],
  );
  return row.total_count as number;
}
