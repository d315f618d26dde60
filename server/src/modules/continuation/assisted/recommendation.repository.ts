import { EntityManager } from 'typeorm';
import {
  CANDIDATE_HITS,
  CONTENT_CANDIDATES,
  ContentHit,
  EventBound,
  Hit,
  RecalledRange,
  WINDOW_AFTER,
  WINDOW_BEFORE,
} from './recommendations';
import { ParsedSearchQuery, SEARCH_CONFIGURATION, SearchScope, termScoreLimit } from '../../search/search';
import { AreaStatistics, areaStatisticsSql, bm25Sql, meanLength, weighTerms } from '../../search/search.repository';
import { readTogether } from '../../../platform/db/read-together';

const BOUND = (alias: string) =>
  `json_build_object('id', ${alias}.id, 'sessionId', ${alias}.session_id, 'seq', ${alias}.seq, 'tokenCount', ${alias}.token_count, 'tokenTotal', ${alias}.token_total, 'hash', ${alias}.hash)`;

/**
 * The lineage's best `candidates` events matching the purpose's words, best first, each with its neighbours and
 * the words it holds. Ranked as search ranks them (BM25, the words weighed by their rarity in the
 * lineage), the score taken as a share of the most the purpose's words could score, so that it
 * compares with the relevance of resource blocks and memory entries. Cards and banners (runtime
 * text about the lineage itself) and replayed messages (copies of an original that is found on its
 * own) are no sources to recommend.
 */
export async function purposeHits(
  manager: EntityManager,
  accountId: string,
  originId: string,
  query: ParsedSearchQuery,
  words: string[],
  candidates: number = CANDIDATE_HITS,
): Promise<Hit[]> {
  if (!query.anyWords) return [];
  const area = { scope: SearchScope.LINEAGE, originId } as const;
  const [weighed]: ({ lexemes: string[] } & AreaStatistics)[] = await manager.query(
    `WITH queried AS (SELECT ARRAY(SELECT DISTINCT unnest(tsvector_to_array(to_tsvector('${SEARCH_CONFIGURATION}', $2))) ORDER BY 1) AS lexemes)
     SELECT queried.lexemes, statistics.* FROM queried CROSS JOIN LATERAL (${areaStatisticsSql(area, '$3', 'queried.lexemes')}) statistics`,
    [accountId, words.join(' '), originId],
  );
  const terms = weighTerms(weighed.lexemes, weighed);
  const most = terms.reduce((sum, term, index) => sum + termScoreLimit(term.weight, weighed.most_frequent[index], weighed.spoken[index]), 0);
  if (most === 0) return [];
  const rows: { hit_id: string; session_id: string; seq: number; relevance: number; matched: string[]; neighbours: EventBound[] }[] =
    await manager.query(
      `WITH hits AS (
         SELECT hit.id, hit.session_id, hit.seq, hit.search_vector,
                ${bm25Sql('hit', '$8', '$9', '$10')} / $11::float8 AS relevance
         FROM events hit
         WHERE hit.account_id = $1 AND hit.search_vector @@ websearch_to_tsquery('${SEARCH_CONFIGURATION}', $2)
           AND hit.session_id IN (SELECT id FROM sessions WHERE origin_id = $3 AND account_id = $1)
           AND hit.kind <> 'CONTINUATION' AND hit.replay_of_id IS NULL
         ORDER BY relevance DESC, hit.id DESC
         LIMIT $4
       )
       SELECT hits.id AS hit_id, hits.session_id, hits.seq, hits.relevance,
              ARRAY(SELECT word FROM unnest($5::text[]) word
                    WHERE hits.search_vector @@ plainto_tsquery('${SEARCH_CONFIGURATION}', word)) AS matched,
              (SELECT coalesce(json_agg(${BOUND('near')} ORDER BY near.seq), '[]'::json) FROM events near
               WHERE near.session_id = hits.session_id AND near.seq BETWEEN hits.seq - $6 AND hits.seq + $7) AS neighbours
       FROM hits
       ORDER BY hits.relevance DESC, hits.id DESC`,
      [
        accountId,
        query.anyWords,
        originId,
        candidates,
        words,
        WINDOW_BEFORE,
        WINDOW_AFTER,
        terms.map((term) => term.lexeme),
        terms.map((term) => term.weight),
        meanLength(weighed),
        most,
      ],
    );
  return rows.map((row) => ({
    eventId: row.hit_id,
    sessionId: row.session_id,
    seq: row.seq,
    relevance: Number(row.relevance),
    matchedWords: row.matched,
    neighbours: row.neighbours,
  }));
}

/** A row of `purposeContent`'s reads: a resource block or a memory entry. */
interface ContentRow {
  reference: string;
  version: string | null;
  block_id: string | null;
  relevance: number;
  matched: string[];
}

/**
 * The account's resource blocks (of each resource's latest version, unless revoked) and current
 * memory entries whose text matches the purpose's words, best first per kind. A block, not its
 * whole version, is the unit: the exact part that matches, at its own cost.
 */
export async function purposeContent(manager: EntityManager, accountId: string, query: ParsedSearchQuery, words: string[]): Promise<ContentHit[]> {
  if (!query.anyWords) return [];
  const tsquery = `websearch_to_tsquery('${SEARCH_CONFIGURATION}', $2)`;
  const matched = (vector: string) =>
    `ARRAY(SELECT word FROM unnest($3::text[]) word WHERE ${vector} @@ plainto_tsquery('${SEARCH_CONFIGURATION}', word))`;
  const [blocks, memories] = await readTogether<[ContentRow[], ContentRow[]]>(manager, [
    () =>
      manager.query(
        `SELECT version.url AS reference, version.version, block.id AS block_id, block.relevance, ${matched('block.vector')} AS matched
         FROM resource_versions version
         JOIN resources resource ON resource.account_id = version.account_id AND resource.url_key = version.url_key
         CROSS JOIN LATERAL (
           SELECT part ->> 'id' AS id, to_tsvector('${SEARCH_CONFIGURATION}', part ->> 'text') AS vector FROM jsonb_array_elements(version.blocks) part
         ) parts
         CROSS JOIN LATERAL (SELECT parts.id, parts.vector, ts_rank_cd(parts.vector, ${tsquery}, 1) AS relevance) block
         WHERE version.account_id = $1 AND version.search_vector @@ ${tsquery}
           AND resource.revoked_at IS NULL AND version.version = resource.version_count::text
           AND block.vector @@ ${tsquery}
         ORDER BY block.relevance DESC, version.url, block.id
         LIMIT $4`,
        [accountId, query.anyWords, words, CONTENT_CANDIDATES],
      ),
    () =>
      manager.query(
        `SELECT entry.path AS reference, NULL AS version, NULL AS block_id, ts_rank_cd(entry.search_vector, ${tsquery}, 1) AS relevance,
                ${matched('entry.search_vector')} AS matched
         FROM memory_entries entry
         JOIN memory_paths current ON current.account_id = entry.account_id AND current.entry_id = entry.id
         WHERE entry.account_id = $1 AND entry.search_vector @@ ${tsquery}
         ORDER BY relevance DESC, entry.path
         LIMIT $4`,
        [accountId, query.anyWords, words, CONTENT_CANDIDATES],
      ),
  ]);
  return [
    ...blocks.map((row): ContentHit => ({
      kind: 'RESOURCE',
      url: row.reference,
      version: row.version,
      blockId: row.block_id,
      path: null,
      relevance: Number(row.relevance),
      matchedWords: row.matched,
    })),
    ...memories.map((row): ContentHit => ({
      kind: 'MEMORY',
      url: null,
      version: null,
      blockId: null,
      path: row.reference,
      relevance: Number(row.relevance),
      matchedWords: row.matched,
    })),
  ];
}

/** Event sources that manifests of the lineage listed and that were read back since, with their recall counts. */
export async function recalledRanges(manager: EntityManager, accountId: string, originId: string): Promise<RecalledRange[]> {
  const rows: { first: EventBound; last: EventBound; recall_count: number }[] = await manager.query(
    `SELECT ${BOUND('first')} AS first, ${BOUND('last')} AS last, recall.recall_count
     FROM projection_manifests manifest
     JOIN manifest_item_recalls recall ON recall.manifest_id = manifest.id
     CROSS JOIN LATERAL (SELECT manifest.items -> recall.item_index AS item) listed
     JOIN events first ON first.id = (coalesce(listed.item ->> 'fromEventId', listed.item ->> 'eventId'))::uuid
     JOIN events last ON last.id = (coalesce(listed.item ->> 'toEventId', listed.item ->> 'eventId'))::uuid
     WHERE manifest.account_id = $1 AND manifest.origin_id = $2
       AND listed.item ->> 'kind' IN ('SESSION_EVENTS', 'SESSION_EVENT')`,
    [accountId, originId],
  );
  return rows.map((row) => ({ first: row.first, last: row.last, recallCount: row.recall_count }));
}
