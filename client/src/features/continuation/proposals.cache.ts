import type { ApolloCache, Reference } from '@apollo/client';

/** A proposal of a session, as its subscriptions push it. */
interface ProposalStatus {
  id: string;
  status: string;
}

/**
 * Keeps the session's cached `pendingProposal` in step with a pushed proposal: a new PENDING one
 * becomes it, a decided or expired one stops being it. Does nothing where it was never read.
 */
export function markPendingProposal(cache: ApolloCache, sessionId: string, proposal: ProposalStatus): void {
  cache.modify<{ pendingProposal: Reference | null }>({
    id: cache.identify({ __typename: 'Session', id: sessionId }),
    fields: {
      pendingProposal(existing, { readField, toReference }) {
        if (proposal.status === 'PENDING') return toReference({ __typename: 'ContinuationProposal', id: proposal.id }) ?? existing;
        return existing && readField('id', existing) === proposal.id ? null : existing;
      },
    },
  });
}
