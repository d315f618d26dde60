import { EntityManager } from 'typeorm';
import { ProposalStatus } from './proposals';
import { ContinuationProposalEntity } from './continuation-proposal.entity';
import { preparedQuery } from '../../platform/db/prepared';
import { columnList, entityFromRow, returnedRows } from '../../platform/db/rows';
import { enqueueWebhooks } from '../webhooks/webhook.repository';
import { proposalDecided } from './webhook-events';

// The partial indexes hold PENDING proposals only: a statement names the status as a literal, so
// that its generic plan, made without the values, can still use them.

/**
 * Locks one proposal of the account for the rest of the transaction. `decidable` is the
 * database's own verdict, by its clock, that it is PENDING and not past its time: a proposal
 * past its time is never decided, whether or not the expiry sweep has marked it yet.
 */
export async function lockProposal(
  manager: EntityManager,
  accountId: string,
  proposalId: string,
): Promise<{ proposal: ContinuationProposalEntity; decidable: boolean } | null> {
  const rows = await preparedQuery(
    manager,
    `SELECT ${columnList(manager, ContinuationProposalEntity)}, (status = $3 AND expires_at > statement_timestamp()) AS decidable
     FROM continuation_proposals WHERE id = $1 AND account_id = $2 FOR UPDATE`,
    [proposalId, accountId, ProposalStatus.PENDING],
  );
  if (!rows.length) return null;
  return { proposal: entityFromRow(manager, ContinuationProposalEntity, rows[0]), decidable: rows[0].decidable === true };
}

/** The session's pending proposals, each marked EXPIRED: a new one supersedes them. */
export async function supersedePending(manager: EntityManager, sessionId: string, now: Date): Promise<ContinuationProposalEntity[]> {
  const rows = returnedRows(await preparedQuery(
    manager,
    `UPDATE continuation_proposals SET status = 'EXPIRED', decided_at = $1 WHERE session_id = $2 AND status = 'PENDING'
     RETURNING ${columnList(manager, ContinuationProposalEntity)}`,
    [now, sessionId],
  ));
  const superseded = rows.map((row) => entityFromRow(manager, ContinuationProposalEntity, row));
  await enqueueWebhooks(manager, superseded.map(proposalDecided));
  return superseded;
}

/**
 * Marks EXPIRED the pending proposal that is longest past its time (by the database's clock), if
 * any: one at a time, as runs are claimed, so that the statement is a probe of the primary key.
 * Call it in a transaction: its webhook goes to the outbox with it.
 */
export async function expireNextDue(manager: EntityManager): Promise<ContinuationProposalEntity | null> {
  const rows = returnedRows(
    await preparedQuery(
      manager,
      `UPDATE continuation_proposals SET status = $1, decided_at = statement_timestamp()
       WHERE id = (SELECT id FROM continuation_proposals WHERE status = 'PENDING' AND expires_at <= statement_timestamp()
                   ORDER BY expires_at LIMIT 1 FOR UPDATE SKIP LOCKED)
       RETURNING ${columnList(manager, ContinuationProposalEntity)}`,
      [ProposalStatus.EXPIRED],
    ),
  );
  if (!rows.length) return null;
  const expired = entityFromRow(manager, ContinuationProposalEntity, rows[0]);
  await enqueueWebhooks(manager, [proposalDecided(expired)]);
  return expired;
}

/** When the soonest pending proposal expires; null when none is pending. */
export async function nextExpiry(manager: EntityManager): Promise<Date | null> {
  const rows = await preparedQuery(
    manager,
    `SELECT expires_at FROM continuation_proposals WHERE status = 'PENDING' ORDER BY expires_at LIMIT $1`,
    [1],
  );
  return rows.length ? new Date(rows[0].expires_at as string | Date) : null;
}

/** The pending proposals of some sessions that are not past their time, aligned with `sessionIds` by the caller. */
export async function pendingProposals(manager: EntityManager, accountId: string, sessionIds: readonly string[]): Promise<ContinuationProposalEntity[]> {
  const rows = await preparedQuery(
    manager,
    `SELECT ${columnList(manager, ContinuationProposalEntity)} FROM continuation_proposals
     WHERE session_id = ANY($1::uuid[]) AND account_id = $2 AND status = 'PENDING' AND expires_at > statement_timestamp()`,
    [sessionIds, accountId],
  );
  return rows.map((row) => entityFromRow(manager, ContinuationProposalEntity, row));
}

/** Proposals of a session made or decided at or after `since`: what a subscriber may have missed. */
export async function proposalsChangedSince(manager: EntityManager, sessionId: string, since: Date): Promise<ContinuationProposalEntity[]> {
  const rows = await preparedQuery(
    manager,
    `SELECT ${columnList(manager, ContinuationProposalEntity)} FROM continuation_proposals
     WHERE session_id = $1 AND (created_at >= $2 OR decided_at >= $2) ORDER BY created_at, id`,
    [sessionId, since],
  );
  return rows.map((row) => entityFromRow(manager, ContinuationProposalEntity, row));
}
