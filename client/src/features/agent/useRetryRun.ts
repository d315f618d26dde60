import { CombinedGraphQLErrors } from '@apollo/client';
import { useMutation } from '@apollo/client/react';
import { graphql } from '../../gql';

export const RetryRunMutation = graphql(`
  mutation RetryRun($runId: ID!) {
    retryRun(runId: $runId) {
      ...RunState
    }
  }
`);

export type RetryOutcome = { kind: 'queued' } | { kind: 'refused'; message: string } | { kind: 'failed'; message: string };

/**
 * Queues a FAILED run again. The answer is the run, QUEUED: written over the cached run by id,
 * so every view of it turns back to "thinking". The server refuses a run that did not fail.
 */
export function useRetryRun() {
  const [mutate, { loading }] = useMutation(RetryRunMutation);

  async function retryRun(runId: string): Promise<RetryOutcome> {
    try {
      await mutate({ variables: { runId } });
      return { kind: 'queued' };
    } catch (caught) {
      if (CombinedGraphQLErrors.is(caught)) {
        return { kind: 'refused', message: caught.errors.map((error) => error.message).join(' ') };
      }
      return { kind: 'failed', message: caught instanceof Error ? caught.message : String(caught) };
    }
  }

  return { retryRun, retrying: loading };
}
