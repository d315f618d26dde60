import { EntityManager } from 'typeorm';
import { ProposalStatus } from '../../domain/proposals';
import { ContinuationProposalEntity } from '../entities/continuation-proposal.entity';
import { preparedQuery } from '../prepared';
import { columnList, entityFromRow, returnedRows } from '../rows';

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
    `UPDATE continuation_proposals SET status = $1, decided_at = $2 WHERE session_id = $3 AND status = $4
     RETURNING ${columnList(manager, ContinuationProposalEntity)}`,
    [ProposalStatus.EXPIRED, now, sessionId, ProposalStatus.PENDING],
  ));
  return rows.map((row) => entityFromRow(manager, ContinuationProposalEntity, row));
}

/** Marks EXPIRED every pending proposal past its time (by the database's clock), at most `limit` of them. */
export async function expireDue(manager: EntityManager, limit: number): Promise<ContinuationProposalEntity[]> {
  const rows = returnedRows(await preparedQuery(
    manager,
    `UPDATE continuation_proposals SET status = $1, decided_at = statement_timestamp()
     WHERE id IN (SELECT id FROM continuation_proposals WHERE status = $2 AND expires_at <= statement_timestamp()
                  ORDER BY expires_at LIMIT $3 FOR UPDATE SKIP LOCKED)
     RETURNING ${columnList(manager, ContinuationProposalEntity)}`,
    [ProposalStatus.EXPIRED, ProposalStatus.PENDING, limit],
  ));
  return rows.map((row) => entityFromRow(manager, ContinuationProposalEntity, row));
}

/** When the soonest pending proposal expires; null when none is pending. */
export async function nextExpiry(manager: EntityManager): Promise<Date | null> {
  const rows = await preparedQuery(
    manager,
    `SELECT expires_at FROM continuation_proposals WHERE status = $1 ORDER BY expires_at LIMIT 1`,
    [ProposalStatus.PENDING],
  );
  return rows.length ? new Date(rows[0].expires_at as string | Date) : null;
}

/** The pending proposals of some sessions that are not past their time, aligned with `sessionIds` by the caller. */
export async function pendingProposals(manager: EntityManager, accountId: string, sessionIds: readonly string[]): Promise<ContinuationProposalEntity[]> {
  const rows = await preparedQuery(
    manager,
    `SELECT ${columnList(manager, ContinuationProposalEntity)} FROM continuation_proposals
     WHERE session_id = ANY($1::uuid[]) AND account_id = $2 AND status = $3 AND expires_at > statement_timestamp()`,
    [sessionIds, accountId, ProposalStatus.PENDING],
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
