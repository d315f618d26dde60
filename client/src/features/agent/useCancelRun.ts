import { CombinedGraphQLErrors } from '@apollo/client';
import { useMutation } from '@apollo/client/react';
import { graphql } from '../../gql';

export const CancelRunMutation = graphql(`
  mutation CancelRun($runId: ID!) {
    cancelRun(runId: $runId) {
      ...RunState
    }
  }
`);

/**
 * Stops a queued or running turn. The answer is the run, CANCELLED, written over the cached run
 * by id, so every view of it stops "thinking"; what it produced arrives as its answer, marked stopped.
 * Resolves to the server's refusal (a run that finished meanwhile) or failure, or null.
 */
export function useCancelRun() {
  const [mutate, { loading }] = useMutation(CancelRunMutation);

  async function cancelRun(runId: string): Promise<string | null> {
    try {
      await mutate({ variables: { runId } });
      return null;
    } catch (caught) {
      if (CombinedGraphQLErrors.is(caught)) return caught.errors.map((error) => error.message).join(' ');
      return caught instanceof Error ? caught.message : String(caught);
    }
  }

  return { cancelRun, cancelling: loading };
}
