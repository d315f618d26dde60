import { useQuery, useSubscription } from '@apollo/client/react';
import { useEffect } from 'react';
import { graphql } from '../../gql';
import type { RunStateFragment, RunStatus } from '../../gql/graphql';
import { addRunToSession } from './runs.cache';

export const SessionAgentStateQuery = graphql(`
  query SessionAgentState($id: ID!) {
    session(id: $id) {
      id
      continuationSuggested
      contextUsage {
        tokens
        windowTokens
        threshold
        share
      }
      runs(last: 10) {
        ...RunState
      }
    }
  }
`);

export const RunUpdatedSubscription = graphql(`
  subscription RunUpdated($sessionId: ID!) {
    runUpdated(sessionId: $sessionId) {
      ...RunState
    }
  }
`);

const IN_PROGRESS: RunStatus[] = ['QUEUED', 'RUNNING'];

export function isInProgress(run: RunStateFragment): boolean {
  return IN_PROGRESS.includes(run.status);
}

/**
 * A change made between reading the runs and the subscription taking effect is never pushed:
 * while a turn looks unfinished, the runs are read again this often, so the view cannot stay
 * on "thinking" after the answer came.
 */
const UNFINISHED_TURN_RECHECK_MS = 5_000;

/**
 * What the agent is doing in an ACTIVE session: its current turn (the newest TURN run, kept
 * current by `runUpdated`; a few delegated runs may be newer), how full the model's context is,
 * and whether the server advises continuing in a new session. The advice changes between
 * turns, so it is read again whenever a turn ends. Nothing is asked while `active` is false:
 * only an ACTIVE session takes turns.
 */
export function useAgentActivity(sessionId: string, active: boolean) {
  const { data, error, refetch, startPolling, stopPolling } = useQuery(SessionAgentStateQuery, {
    variables: { id: sessionId },
    // Show what the cache knows at once, then what the server says now.
    fetchPolicy: 'cache-and-network',
    skip: !active,
  });

  const { error: liveError } = useSubscription(RunUpdatedSubscription, {
    variables: { sessionId },
    skip: !active,
    onData({ client, data: pushed }) {
      const run = pushed.data?.runUpdated;
      if (!run) return;
      addRunToSession(client.cache, sessionId, run);
      if (run.kind === 'TURN' && !isInProgress(run)) void refetch();
    },
  });

  const session = active ? data?.session : undefined;
  const currentTurn = session?.runs.findLast((run) => run.kind === 'TURN') ?? null;
  const turnUnfinished = currentTurn !== null && isInProgress(currentTurn);
  useEffect(() => {
    if (!turnUnfinished) return;
    startPolling(UNFINISHED_TURN_RECHECK_MS);
    return stopPolling;
  }, [turnUnfinished, startPolling, stopPolling]);

  return {
    currentTurn,
    contextUsage: session?.contextUsage ?? null,
    continuationSuggested: session?.continuationSuggested ?? false,
    /** Re-reads the runs: after a refusal that says this view is behind the server. */
    refresh: refetch,
    error: error ?? liveError,
  };
}

export type AgentActivityState = ReturnType<typeof useAgentActivity>;
