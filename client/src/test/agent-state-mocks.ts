import type { MockLink } from '@apollo/client/testing';
import { SessionAgentStateQuery } from '../features/agent/useAgentActivity';
import type { RunStateFragment } from '../gql/graphql';
import { SESSION_ID } from './session-page-harness';

/** The server's defaults: a 32,768-token window, continuation advised from 80 % of it. */
export const WINDOW_TOKENS = 32_768;
export const CONTINUATION_THRESHOLD = 0.8;

/** A turn that answered; `overrides` makes it queued, running or failed. */
export function runState(overrides: Partial<RunStateFragment> = {}): RunStateFragment {
  return {
    __typename: 'Run',
    id: 'run-1',
    kind: 'TURN',
    status: 'SUCCEEDED',
    error: null,
    ...overrides,
  };
}

export interface AgentState {
  runs?: RunStateFragment[];
  tokens?: number;
  continuationSuggested?: boolean;
}

/**
 * Answers the session page's agent-state query as often as it is asked (it asks again after each
 * turn, and now and then while one is unfinished), each time with what `state()` says then.
 */
export function agentStateMock(state: () => AgentState = () => ({})): MockLink.MockedResponse {
  return {
    request: { query: SessionAgentStateQuery, variables: { id: SESSION_ID } },
    result: () => {
      const { runs = [], tokens = 120, continuationSuggested = false } = state();
      return {
        data: {
          session: {
            __typename: 'Session',
            id: SESSION_ID,
            continuationSuggested,
            contextUsage: {
              __typename: 'ContextUsage',
              tokens,
              windowTokens: WINDOW_TOKENS,
              threshold: CONTINUATION_THRESHOLD,
              share: tokens / WINDOW_TOKENS,
            },
            runs,
          },
        },
      };
    },
    maxUsageCount: Number.POSITIVE_INFINITY,
  };
}
