import { EntityManager } from 'typeorm';
import { SPEAKER_PREFIX } from './search';

/**
 * Forgets the term statistics of whole sessions whose events are being erased: none of their
 * words count anywhere any more. Runs in the erasure's transaction.
 */
export async function forgetSessionTerms(manager: EntityManager, accountId: string, sessionIds: string[]): Promise<void> {
  if (sessionIds.length === 0) return;
  await manager.query(`DELETE FROM search_terms WHERE account_id = $1 AND session_id = ANY($2::uuid[])`, [accountId, sessionIds]);
}

/**
 * Counts the statistics of the words of single events again as if those events held no text:
 * each (session, word) they touched is recounted from the session's other events, and dropped
 * where no other event holds the word. Call it in the erasure's transaction, before the events
 * lose their text (their vectors say which words to recount).
 */
export async function recountTermsWithout(manager: EntityManager, accountId: string, eventIds: string[]): Promise<void> {
  if (eventIds.length === 0) return;
  await manager.query(
    `WITH erased_terms AS (
       SELECT DISTINCT event.session_id, entry.lexeme
       FROM events event, unnest(event.search_vector) entry
       WHERE event.id = ANY($2::uuid[]) AND event.account_id = $1
     ),
     remaining AS (
       SELECT event.session_id, entry.lexeme, count(*)::int AS documents,
              max(coalesce(array_length(entry.positions, 1), 1)) AS most_frequent,
              bool_or(entry.positions[1] = 1 AND event.text ~ '${SPEAKER_PREFIX}') AS spoken
       FROM events event, unnest(event.search_vector) entry
       WHERE event.session_id IN (SELECT DISTINCT session_id FROM erased_terms) AND NOT (event.id = ANY($2::uuid[]))
         AND (event.session_id, entry.lexeme) IN (SELECT session_id, lexeme FROM erased_terms)
       GROUP BY 1, 2
     ),
     recounted AS (
       UPDATE search_terms term SET documents = remaining.documents, most_frequent = remaining.most_frequent, spoken = remaining.spoken
       FROM remaining
       WHERE term.account_id = $1 AND term.lexeme = remaining.lexeme AND term.session_id = remaining.session_id
       RETURNING 1
     ),
     dropped AS (
       DELETE FROM search_terms term USING erased_terms erased
       WHERE term.account_id = $1 AND term.lexeme = erased.lexeme AND term.session_id = erased.session_id
         AND NOT EXISTS (SELECT 1 FROM remaining WHERE remaining.lexeme = erased.lexeme AND remaining.session_id = erased.session_id)
       RETURNING 1
     )
     SELECT (SELECT count(*) FROM recounted) AS recounted, (SELECT count(*) FROM dropped) AS dropped`,
    [accountId, eventIds],
  );
}
