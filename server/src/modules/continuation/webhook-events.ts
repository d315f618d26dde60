import { WebhookEvent, WebhookEventType } from '../webhooks/webhooks';
import type { ContinuationEdgeEntity } from './continuation-edge.entity';
import type { ContinuationProposalEntity } from './continuation-proposal.entity';

/** `session.continued` for a new edge. */
export function sessionContinued(edge: ContinuationEdgeEntity): WebhookEvent {
  return {
    accountId: edge.accountId,
    type: WebhookEventType.SESSION_CONTINUED,
    occurredAt: edge.createdAt,
    data: {
      edgeId: edge.id,
      predecessorId: edge.predecessorId,
      successorId: edge.successorId,
      successorDepth: edge.successorDepth,
      reason: edge.reason,
      actor: edge.actor,
      initiatingEventId: edge.initiatingEventId,
      createdAt: edge.createdAt.toISOString(),
    },
  };
}

/** `proposal.created` for a proposal the agent made. */
export function proposalCreated(proposal: ContinuationProposalEntity): WebhookEvent {
  return {
    accountId: proposal.accountId,
    type: WebhookEventType.PROPOSAL_CREATED,
    occurredAt: proposal.createdAt,
    data: { proposalId: proposal.id, sessionId: proposal.sessionId, status: proposal.status, expiresAt: proposal.expiresAt.toISOString(), createdAt: proposal.createdAt.toISOString() },
  };
}

/** `proposal.decided` for a proposal approved, rejected, superseded or expired. */
export function proposalDecided(proposal: Pick<ContinuationProposalEntity, 'id' | 'accountId' | 'sessionId' | 'status' | 'edgeId' | 'decidedAt'>): WebhookEvent {
  const decidedAt = proposal.decidedAt ?? new Date();
  return {
    accountId: proposal.accountId,
    type: WebhookEventType.PROPOSAL_DECIDED,
    occurredAt: decidedAt,
    data: { proposalId: proposal.id, sessionId: proposal.sessionId, status: proposal.status, edgeId: proposal.edgeId, decidedAt: decidedAt.toISOString() },
  };
}
