import { useMutation } from '@apollo/client/react';
import { graphql } from '../../gql';
import type { EraseSessionMutation, ErasureScope } from '../../gql/graphql';

export const EraseSessionMutationDocument = graphql(`
  mutation EraseSession($input: EraseSessionInput!) {
    eraseSession(input: $input) {
      __typename
      ... on ErasureReceipt {
        id
        scope
        sessionIds
        eventCount
        attachmentCount
        erasedAt
      }
      ... on OperationError {
        ...OperationErrorNoticeFields
      }
    }
  }
`);

export type EraseOutcome = EraseSessionMutation['eraseSession'];

/**
 * Erases a session or its lineage for good. Every query on screen is read again afterwards, so the
 * transcript shows its erased events and the sidebar lets the conversation go.
 */
export function useEraseSession() {
  const [mutate, { loading }] = useMutation(EraseSessionMutationDocument, { refetchQueries: 'active' });
  async function erase(sessionId: string, scope: ErasureScope, reason: string): Promise<EraseOutcome> {
    const { data } = await mutate({ variables: { input: { sessionId, scope, reason } } });
    return data!.eraseSession;
  }
  return { erase, erasing: loading };
}
