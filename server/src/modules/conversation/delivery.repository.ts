import { EntityManager, MoreThanOrEqual } from 'typeorm';
import { ContinuationEdgeEntity } from '../continuation/continuation-edge.entity';
import { ContinuationProposalEntity } from '../continuation/approval/continuation-proposal.entity';
import { EventEntity } from './event.entity';
import { RunEntity } from './run.entity';
import { SessionEntity } from './session.entity';
import { proposalsChangedSince } from '../continuation/approval/proposal.repository';

/**
 * What subscribers read back from the database when a publish reaches them in compact form, or
 * when they catch up after the pub/sub connection was down.
 */
export interface PublishedRecords {
  event(id: string): Promise<EventEntity | null>;
  /** The session's last event: a transcript stream fills everything up to it. */
  latestEvent(sessionId: string): Promise<EventEntity | null>;
  /** Runs reporting to the session that changed at or after `since`, oldest change first. */
  runsChangedSince(sessionId: string, since: Date): Promise<RunEntity[]>;
  run(id: string): Promise<RunEntity | null>;
  /** Continuations of one predecessor, or of one account, made at or after `since`, oldest first. */
  continuationsSince(scope: { predecessorId: string } | { accountId: string }, since: Date): Promise<ContinuationEdgeEntity[]>;
  /** Proposals of the session made or decided at or after `since`. */
  proposalsChangedSince(sessionId: string, since: Date): Promise<ContinuationProposalEntity[]>;
}

export function publishedRecords(manager: EntityManager): PublishedRecords {
  return {
    event: (id) => manager.findOneBy(EventEntity, { id }),
    async latestEvent(sessionId) {
      const session = await manager.findOneBy(SessionEntity, { id: sessionId });
      return session && session.eventCount > 0 ? manager.findOneBy(EventEntity, { sessionId, seq: session.eventCount }) : null;
    },
    run: (id) => manager.findOneBy(RunEntity, { id }),
    runsChangedSince: (sessionId, since) =>
      manager.find(RunEntity, { where: { sessionId, updatedAt: MoreThanOrEqual(since) }, order: { updatedAt: 'ASC', id: 'ASC' } }),
    continuationsSince: (scope, since) =>
      manager.find(ContinuationEdgeEntity, { where: { ...scope, createdAt: MoreThanOrEqual(since) }, order: { createdAt: 'ASC', id: 'ASC' } }),
    proposalsChangedSince: (sessionId, since) => proposalsChangedSince(manager, sessionId, since),
  };
}
