import { EntityManager } from 'typeorm';
import { RunEntity } from '../../conversation/run.entity';
import { entityFromRow, returnedRows } from '../../../platform/db/rows';
import { runEnded } from '../../conversation/webhook-events';
import { proposalDecided } from '../../continuation/webhook-events';
import type { ContinuationProposalEntity } from '../../continuation/continuation-proposal.entity';
import { enqueueWebhooks } from '../../webhooks/webhook.repository';
import { ERASED_CARD_KEYS, ERASED_SESSION_TITLE } from './erasure';

/** What one erasure covers: whole sessions, and single events elsewhere (a redacted event, replays of erased messages). */
export interface ErasureTargets {
  accountId: string;
  sessionIds: string[];
  eventIds: string[];
}

/**
 * The sessions an erasure of `sessionId` covers: the session, or (lineage) every session of its
 * lineage, and in both cases the child sessions their work was delegated to, at any depth. Empty
 * when the session is not the account's.
 */
export async function coveredSessions(manager: EntityManager, accountId: string, sessionId: string, wholeLineage: boolean): Promise<string[]> {
  const rows: { id: string }[] = await manager.query(
    `WITH RECURSIVE covered (id) AS (
       SELECT id FROM sessions
       WHERE account_id = $1 AND CASE WHEN $3 THEN origin_id = (SELECT origin_id FROM sessions WHERE id = $2 AND account_id = $1) ELSE id = $2 END
       UNION
       SELECT session.id FROM covered
       JOIN sessions session ON session.parent_id = covered.id OR ($3 AND session.origin_id = covered.id)
       WHERE session.account_id = $1
     )
     SELECT id FROM covered ORDER BY id`,
    [accountId, sessionId, wholeLineage],
  );
  return rows.map((row) => row.id);
}

/**
 * Locks the sessions, in id order (every erasure takes them in that order), and returns those
 * still there. Appends to a session take its lock, so once held, nothing is added to them.
 */
export async function lockSessions(manager: EntityManager, accountId: string, sessionIds: string[]): Promise<string[]> {
  const rows: { id: string }[] = await manager.query(
    `SELECT id FROM sessions WHERE account_id = $1 AND id = ANY($2::uuid[]) ORDER BY id FOR UPDATE`,
    [accountId, sessionIds],
  );
  return rows.map((row) => row.id);
}

/**
 * The replays of the targets' messages in sessions the erasure does not cover: a successor opens
 * with its initiating message replayed exactly, and that copy goes with its original, at any depth.
 */
export async function replaysOutside(manager: EntityManager, targets: ErasureTargets): Promise<string[]> {
  const opening = `JOIN events opening ON opening.session_id = edge.successor_id AND opening.seq = 2 AND opening.replay_of_id = edge.initiating_event_id`;
  const rows: { id: string }[] = await manager.query(
    `WITH RECURSIVE replayed (id, session_id) AS (
       SELECT opening.id, opening.session_id FROM continuation_edges edge
       JOIN events initiating ON initiating.id = edge.initiating_event_id
       ${opening}
       WHERE edge.account_id = $1 AND (initiating.session_id = ANY($2::uuid[]) OR initiating.id = ANY($3::uuid[]))
       UNION
       SELECT opening.id, opening.session_id FROM replayed
       JOIN continuation_edges edge ON edge.initiating_event_id = replayed.id
       ${opening}
     )
     SELECT id FROM replayed WHERE NOT (session_id = ANY($2::uuid[])) AND NOT (id = ANY($3::uuid[]))`,
    [targets.accountId, targets.sessionIds, targets.eventIds],
  );
  return rows.map((row) => row.id);
}

const TARGETED = `(session_id = ANY($2::uuid[]) OR id = ANY($3::uuid[])) AND account_id = $1 AND erased_at IS NULL`;
const targetParameters = (targets: ErasureTargets) => [targets.accountId, targets.sessionIds, targets.eventIds];

/** The cids the targets' messages link, before they are erased. */
export async function linkedCids(manager: EntityManager, targets: ErasureTargets): Promise<string[]> {
  const rows: { cid: string }[] = await manager.query(
    `SELECT DISTINCT unnest(attachment_cids) AS cid FROM events WHERE ${TARGETED} AND attachment_cids <> '{}'`,
    targetParameters(targets),
  );
  return rows.map((row) => row.cid);
}

/** The earliest time among the targets: no manifest compiled before it can hold their content. */
export async function earliestTarget(manager: EntityManager, targets: ErasureTargets): Promise<Date | null> {
  const [row]: { earliest: Date | null }[] = await manager.query(`SELECT min(created_at) AS earliest FROM events WHERE ${TARGETED}`, targetParameters(targets));
  return row.earliest;
}

/**
 * Erases the targets' events: text, data and attachment links go, `erased_at` is set; ids, seq,
 * kind, token counts, times and the hash as recorded stay. A continuation card or banner keeps
 * the ids that tie it to its edge. Returns the sessions whose events were erased and how many.
 */
export async function eraseEvents(manager: EntityManager, targets: ErasureTargets, now: Date): Promise<{ sessionIds: string[]; count: number }> {
  const keys = ERASED_CARD_KEYS.map((key) => `'${key}'`).join(', ');
  const rows = returnedRows(
    await manager.query(
      `UPDATE events SET erased_at = $4, text = NULL, attachment_cids = '{}',
              data = CASE WHEN kind = 'CONTINUATION' AND jsonb_typeof(data) = 'object'
                          THEN (SELECT jsonb_object_agg(key, value) FROM jsonb_each(data) WHERE key IN (${keys}))
                     END
       WHERE ${TARGETED}
       RETURNING session_id`,
      [...targetParameters(targets), now],
    ),
  ) as { session_id: string }[];
  return { sessionIds: [...new Set(rows.map((row) => row.session_id))], count: rows.length };
}

const ERASED_HANDOFF = { purpose: '', currentRequest: '', establishedFacts: [], decisions: [], openQuestions: [], nextActions: [], cautions: [] };
/** A jsonb array of objects with `key` emptied in each: relevance notes, section texts. */
const emptied = (column: string, key: string) =>
  `(SELECT coalesce(jsonb_agg(element || jsonb_build_object('${key}', '')), '[]'::jsonb) FROM jsonb_array_elements(${column}) element)`;

/**
 * Erases the manifests that carried the erased content: those compiled, at or after `since`, from
 * one of `sessionIds` or citing its events. Their handoff, compiled context, lineage block,
 * relevance notes and draft go; ids, kinds, references, token counts and the hash as recorded
 * stay. Returns how many.
 */
export async function eraseManifests(manager: EntityManager, accountId: string, sessionIds: string[], since: Date, now: Date): Promise<number> {
  const rows = returnedRows(
    await manager.query(
      `UPDATE projection_manifests manifest
       SET erased_at = $4, handoff = $5::jsonb, lineage_block = '', proposal = NULL,
           context = ${emptied('manifest.context', 'text')}, items = ${emptied('manifest.items', 'relevance')},
           sources = ${emptied('manifest.sources', 'relevance')}
       WHERE manifest.account_id = $1 AND manifest.erased_at IS NULL AND manifest.created_at >= $3
         AND (manifest.predecessor_id = ANY($2::uuid[])
              OR EXISTS (SELECT 1 FROM jsonb_array_elements(manifest.items) item WHERE item->>'sessionId' = ANY($2::uuid[]::text[])))
       RETURNING manifest.id`,
      [accountId, sessionIds, since, now, JSON.stringify(ERASED_HANDOFF)],
    ),
  );
  return rows.length;
}

/** Erases the plans of whole sessions: their steps go, the revisions stay. */
export async function erasePlans(manager: EntityManager, accountId: string, sessionIds: string[], now: Date): Promise<void> {
  await manager.query(`UPDATE plan_revisions SET erased_at = $3, steps = '[]'::jsonb WHERE account_id = $1 AND session_id = ANY($2::uuid[]) AND erased_at IS NULL`, [
    accountId,
    sessionIds,
    now,
  ]);
}

/**
 * Stops the runs of whole sessions (those reporting to them and those working in them): queued
 * and running ones become CANCELLED and lose their lease, so a worker still executing one finds
 * its lease gone and writes nothing more; every run's produced output goes. Returns the runs
 * whose status or lease changed, to announce; those it cancelled go to the webhook outbox.
 */
export async function stopRuns(manager: EntityManager, accountId: string, sessionIds: string[]): Promise<RunEntity[]> {
  const rows = returnedRows(
    await manager.query(
      `WITH before AS (
         SELECT id, status, lease_owner FROM runs
         WHERE account_id = $1 AND (session_id = ANY($2::uuid[]) OR child_session_id = ANY($2::uuid[]))
         FOR UPDATE
       )
       UPDATE runs SET status = CASE WHEN runs.status IN ('QUEUED', 'RUNNING') THEN 'CANCELLED' ELSE runs.status END,
              finished_at = CASE WHEN runs.status IN ('QUEUED', 'RUNNING') THEN now() ELSE runs.finished_at END,
              output = NULL, lease_owner = NULL, lease_expires_at = NULL, updated_at = now()
       FROM before WHERE runs.id = before.id
       RETURNING runs.*, (before.status IN ('QUEUED', 'RUNNING') OR before.lease_owner IS NOT NULL) AS stopped,
                 before.status IN ('QUEUED', 'RUNNING') AS cancelled_now`,
      [accountId, sessionIds],
    ),
  );
  const cancelled = rows.filter((row) => row.cancelled_now).map((row) => entityFromRow(manager, RunEntity, row));
  await enqueueWebhooks(manager, cancelled.flatMap(runEnded));
  return rows.filter((row) => row.stopped).map((row) => entityFromRow(manager, RunEntity, row));
}

/** The output of the turn that answered up to the redacted event: it held the same words. */
export async function forgetTurnOutput(manager: EntityManager, eventId: string): Promise<void> {
  await manager.query(
    `UPDATE runs SET output = NULL, updated_at = now()
     WHERE kind = 'TURN' AND trigger_event_id = (
       SELECT answered.id FROM events target
       JOIN events answered ON answered.session_id = target.session_id AND answered.kind = 'USER_MESSAGE' AND answered.seq <= target.seq
       WHERE target.id = $1 ORDER BY answered.seq DESC LIMIT 1)`,
    [eventId],
  );
}

/**
 * Erases the drafts of whole sessions' continuation proposals; a pending one is rejected, since its
 * source is gone, and its decision goes to the webhook outbox.
 */
export async function eraseProposals(manager: EntityManager, accountId: string, sessionIds: string[], now: Date): Promise<void> {
  const rejected: Pick<ContinuationProposalEntity, 'id' | 'sessionId' | 'status' | 'edgeId'>[] = await manager.query(
    `SELECT id, session_id AS "sessionId", 'REJECTED' AS status, edge_id AS "edgeId" FROM continuation_proposals
     WHERE account_id = $1 AND session_id = ANY($2::uuid[]) AND status = 'PENDING'`,
    [accountId, sessionIds],
  );
  await enqueueWebhooks(manager, rejected.map((proposal) => proposalDecided({ ...proposal, accountId, decidedAt: now })));
  await manager.query(
    `UPDATE continuation_proposals
     SET draft = draft || jsonb_build_object('title', '', 'description', NULL, 'handoff', $4::jsonb, 'sources', ${emptied("draft->'sources'", 'relevance')}),
         note = NULL,
         status = CASE WHEN status = 'PENDING' THEN 'REJECTED' ELSE status END,
         decided_at = coalesce(decided_at, $3)
     WHERE account_id = $1 AND session_id = ANY($2::uuid[])`,
    [accountId, sessionIds, now, JSON.stringify(ERASED_HANDOFF)],
  );
}

/** Of `cids`, those that no remaining message or manifest of the account links: their bytes can go. */
export async function unlinkedCids(manager: EntityManager, accountId: string, cids: string[]): Promise<string[]> {
  if (cids.length === 0) return [];
  const rows: { cid: string }[] = await manager.query(
    `SELECT cid FROM unnest($2::text[]) cid
     WHERE NOT EXISTS (SELECT 1 FROM events WHERE account_id = $1 AND attachment_cids <> '{}' AND attachment_cids @> ARRAY[cid])
       AND NOT EXISTS (
         SELECT 1 FROM projection_manifests manifest, jsonb_array_elements(manifest.items) item
         WHERE manifest.account_id = $1 AND manifest.erased_at IS NULL AND item->>'kind' = 'ATTACHMENT' AND item->>'cid' = cid)`,
    [accountId, cids],
  );
  return rows.map((row) => row.cid);
}

/** Marks whole sessions erased: their title and description were content; they take no more writes. */
export async function markSessionsErased(manager: EntityManager, accountId: string, sessionIds: string[], now: Date): Promise<void> {
  await manager.query(`UPDATE sessions SET erased_at = $3, title = $4, description = NULL WHERE account_id = $1 AND id = ANY($2::uuid[]) AND erased_at IS NULL`, [
    accountId,
    sessionIds,
    now,
    ERASED_SESSION_TITLE,
  ]);
}
