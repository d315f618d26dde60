import { EntityManager } from 'typeorm';
import { CANDIDATE_HITS, EventBound, Hit, RecalledRange, WINDOW_AFTER, WINDOW_BEFORE } from '../../domain/recommendations';
import { ParsedSearchQuery, SEARCH_CONFIGURATION } from '../../domain/search';

const BOUND = (alias: string) =>
  `json_build_object('id', ${alias}.id, 'sessionId', ${alias}.session_id, 'seq', ${alias}.seq, 'tokenCount', ${alias}.token_count, 'tokenTotal', ${alias}.token_total, 'hash', ${alias}.hash)`;

/**
 * The lineage's events matching the purpose's words, best first, each with its neighbours and
 * the words it holds. Cards and banners (runtime text about the lineage itself) and replayed
 * messages (copies of an original that is found on its own) are no sources to recommend.
 */
export async function purposeHits(
  manager: EntityManager,
  accountId: string,
  originId: string,
  query: ParsedSearchQuery,
  words: string[],
): Promise<Hit[]> {
  if (!query.anyWords) return [];
  const rows: { hit_id: string; session_id: string; seq: number; relevance: number; matched: string[]; neighbours: EventBound[] }[] =
    await manager.query(
      `WITH hits AS (
         SELECT hit.id, hit.session_id, hit.seq, hit.search_vector,
                ts_rank_cd(hit.search_vector, websearch_to_tsquery('${SEARCH_CONFIGURATION}', $2), 1) AS relevance
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
      [accountId, query.anyWords, originId, CANDIDATE_HITS, words, WINDOW_BEFORE, WINDOW_AFTER],
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
