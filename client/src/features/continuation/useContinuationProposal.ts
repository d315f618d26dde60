import { useMutation, useQuery, useSubscription } from '@apollo/client/react';
import { graphql } from '../../gql';
import type { ApproveContinuationInput, ContinuationApproval } from '../../gql/graphql';

export const ProposalCardFragmentDocument = graphql(`
  fragment ProposalCard on ContinuationProposal {
    id
    status
    reason
    title
    note
    createdAt
    expiresAt
    decidedAt
    handoff {
      purpose
      currentRequest
      establishedFacts
      decisions
      openQuestions
      nextActions
      cautions
    }
    preview {
      tokenBudget
      tokenCost
      context {
        sections {
          kind
          tokenCount
        }
      }
      items {
        ...ManifestItemRow
      }
    }
    edge {
      id
      successor {
        id
        title
      }
    }
    session {
      id
      title
    }
  }
`);

export const ContinuationProposalQuery = graphql(`
  query ContinuationProposal($id: ID!) {
    continuationProposal(id: $id) {
      ...ProposalCard
    }
  }
`);

/** Every change of the session's proposals: written to the cache, where each card reads its own. */
export const ContinuationProposalsSubscription = graphql(`
  subscription ContinuationProposals($sessionId: ID!) {
    continuationProposals(sessionId: $sessionId) {
      ...ProposalCard
    }
  }
`);

export const ApproveContinuationMutation = graphql(`
  mutation ApproveContinuation($input: ApproveContinuationInput!) {
    approveContinuation(input: $input) {
      __typename
      ... on ContinueSessionSuccess {
        edge {
          id
          predecessor {
            id
            status
            currentContinuation {
              id
              title
              status
            }
          }
        }
        successor {
          id
          title
        }
      }
      ... on OperationError {
        ...OperationErrorNoticeFields
      }
    }
  }
`);

export const RejectContinuationMutation = graphql(`
  mutation RejectContinuation($proposalId: ID!, $note: String) {
    rejectContinuation(proposalId: $proposalId, note: $note) {
      ...ProposalCard
    }
  }
`);

export const SetContinuationApprovalMutation = graphql(`
  mutation SetContinuationApproval($sessionId: ID!, $approval: ContinuationApproval!) {
    setContinuationApproval(sessionId: $sessionId, approval: $approval) {
      id
      continuationApproval
    }
  }
`);

/** One proposal as its card shows it; changes arrive through {@link useProposalUpdates}. */
export function useContinuationProposal(proposalId: string) {
  // Read again on every mount: a decision made while this page was not open reached no subscription here.
  const { data, loading, error } = useQuery(ContinuationProposalQuery, { variables: { id: proposalId }, fetchPolicy: 'cache-and-network' });
  return { proposal: data?.continuationProposal ?? null, loading, error };
}

/** Keeps the session's proposals current in the cache while its page is open. */
export function useProposalUpdates(sessionId: string) {
  useSubscription(ContinuationProposalsSubscription, { variables: { sessionId } });
}

/** A person's decisions on a proposal. Approving returns the continuation or the refusal; rejecting the proposal as decided. */
export function useProposalDecisions() {
  const [approveMutation] = useMutation(ApproveContinuationMutation);
  const [rejectMutation] = useMutation(RejectContinuationMutation);
  return {
    async approve(input: ApproveContinuationInput) {
      // The proposal is APPROVED now, with its edge: its card shows the decision.
      const { data } = await approveMutation({ variables: { input }, refetchQueries: [{ query: ContinuationProposalQuery, variables: { id: input.proposalId } }] });
      if (!data) throw new Error('The server sent no result for the approval.');
      return data.approveContinuation;
    },
    async reject(proposalId: string, note: string | null) {
      await rejectMutation({ variables: { proposalId, note } });
    },
  };
}

export function useSetContinuationApproval() {
  const [mutate, { loading, error }] = useMutation(SetContinuationApprovalMutation);
  return {
    setApproval: (sessionId: string, approval: ContinuationApproval) =>
      mutate({
        variables: { sessionId, approval },
        // The toggle shows the new mode at once; a refusal puts the old one back.
        optimisticResponse: { __typename: 'Mutation', setContinuationApproval: { __typename: 'Session', id: sessionId, continuationApproval: approval } },
      }),
    saving: loading,
    error,
  };
}
