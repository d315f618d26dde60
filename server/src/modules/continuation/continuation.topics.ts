import type { TopicPubSub } from '../../platform/pubsub/topic-pub-sub';
import { EntityManager, MoreThanOrEqual } from 'typeorm';
import type { TopicCodec } from '../../platform/pubsub/payload-codec';
import { isId } from '../../shared/ids';
import { ContinuationEdgeEntity } from './continuation-edge.entity';
import type { ContinuationProposalEntity } from './continuation-proposal.entity';
import { proposalsChangedSince } from './proposal.repository';
import type { ContinuationNotifier } from './notifications';

/** A continuation as published: ids only, resolved again by each subscriber under its own account. */
export interface PublishedContinuation {
  edgeId: string;
  predecessorId: string;
  successorId: string;
}

/** A proposal as published: its identity and status; each subscriber reads it again under its own account. */
export interface PublishedProposal {
  id: string;
  sessionId: string;
  status: string;
}

/** The continuation's topics; payloads are JSON-safe records, as for every topic. */
export type ContinuationTopics = {
  /** Keyed by the predecessor's id. */
  SESSION_CONTINUED: [predecessorId: string, continuation: PublishedContinuation];
  /** Keyed by the account's id. */
  ACCOUNT_CONTINUED: [accountId: string, continuation: PublishedContinuation];
  /** Keyed by the proposal's session. */
  CONTINUATION_PROPOSAL: [sessionId: string, proposal: PublishedProposal];
};

function publishedProposal(proposal: ContinuationProposalEntity): PublishedProposal {
  return { id: proposal.id, sessionId: proposal.sessionId, status: proposal.status };
}

/** A continuation as its topics publish it. */
function publishedContinuation(edge: ContinuationEdgeEntity): PublishedContinuation {
  return { edgeId: edge.id, predecessorId: edge.predecessorId, successorId: edge.successorId };
}

/** The continuation's own announcements, publishing to its topics. */
export function continuationPublisher(pubSub: TopicPubSub<ContinuationTopics>): Pick<ContinuationNotifier, 'sessionContinued' | 'proposalsChanged'> {
  return {
    sessionContinued(edge) {
      const continuation = publishedContinuation(edge);
      pubSub.publish('SESSION_CONTINUED', edge.predecessorId, continuation);
      pubSub.publish('ACCOUNT_CONTINUED', edge.accountId, continuation);
    },
    proposalsChanged(proposals) {
      for (const proposal of proposals) pubSub.publish('CONTINUATION_PROPOSAL', proposal.sessionId, publishedProposal(proposal));
    },
  };
}

const isIdString = (value: unknown) => typeof value === 'string' && isId(value);

/** How the continuation's topics cross processes: whole, and read again after a reconnect as they are now. */
export function continuationTopicCodecs(manager: EntityManager): Record<keyof ContinuationTopics, TopicCodec> {
  const continuationsSince = (scope: { predecessorId: string } | { accountId: string }, since: Date) =>
    manager.find(ContinuationEdgeEntity, { where: { ...scope, createdAt: MoreThanOrEqual(since) }, order: { createdAt: 'ASC', id: 'ASC' } });
  const continuation: Omit<TopicCodec, 'missedSince'> = {
    wellShaped: (record) => isIdString(record.edgeId) && isIdString(record.predecessorId) && isIdString(record.successorId),
    identity: (detail) => (detail as PublishedContinuation).edgeId,
  };
  return {
    SESSION_CONTINUED: {
      ...continuation,
      missedSince: async (predecessorId, since) => (await continuationsSince({ predecessorId }, since)).map(publishedContinuation),
    },
    ACCOUNT_CONTINUED: {
      ...continuation,
      missedSince: async (accountId, since) => (await continuationsSince({ accountId }, since)).map(publishedContinuation),
    },
    CONTINUATION_PROPOSAL: {
      wellShaped: (record) => isIdString(record.id) && isIdString(record.sessionId) && typeof record.status === 'string',
      missedSince: async (sessionId, since) => (await proposalsChangedSince(manager, sessionId, since)).map(publishedProposal),
      // A proposal is delivered once made and once decided.
      identity(detail) {
        const proposal = detail as PublishedProposal;
        return `${proposal.id}:${proposal.status}`;
      },
    },
  };
}
