import { useSubscription } from '@apollo/client/react';
import { useEffect, useState } from 'react';
import { graphql } from '../../gql';
import type { SessionActivityFragment } from '../../gql/graphql';
import { markPendingProposal } from '../continuation/proposals.cache';
import { addRunToSession } from './runs.cache';
import { isInProgress } from './useAgentActivity';

export const SessionActivityFragmentDocument = graphql(`
  fragment SessionActivity on Session {
    id
    runs(last: 5) {
      ...RunState
    }
    pendingProposal {
      id
      status
      expiresAt
    }
  }
`);

export const SessionActivityRunsSubscription = graphql(`
  subscription SessionActivityRuns($sessionId: ID!) {
    runUpdated(sessionId: $sessionId) {
      ...RunState
    }
  }
`);

export const SessionProposalStatusSubscription = graphql(`
  subscription SessionProposalStatus($sessionId: ID!) {
    continuationProposals(sessionId: $sessionId) {
      id
      status
      expiresAt
    }
  }
`);

type SessionActivityState = 'answering' | 'waiting' | null;

/** What a session needs to show at a glance: an answer being written, or a proposal waiting for a person. */
function activityOf(session: SessionActivityFragment, now: number): SessionActivityState {
  const proposal = session.pendingProposal;
  if (proposal && proposal.status === 'PENDING' && Date.parse(proposal.expiresAt) > now) return 'waiting';
  const turn = session.runs.findLast((run) => run.kind === 'TURN');
  return turn && isInProgress(turn) ? 'answering' : null;
}

const BADGE_TEXT: Record<NonNullable<SessionActivityState>, string> = {
  answering: 'Answering',
  waiting: 'Needs approval',
};

/**
 * A badge for a session's running turn or waiting proposal, kept live by the session's run and
 * proposal subscriptions; nothing while it is idle.
 */
export function SessionActivityBadge({ session }: { session: SessionActivityFragment }) {
  const sessionId = session.id;
  useSubscription(SessionActivityRunsSubscription, {
    variables: { sessionId },
    onData({ client, data }) {
      const run = data.data?.runUpdated;
      if (run) addRunToSession(client.cache, sessionId, run);
    },
  });
  useSubscription(SessionProposalStatusSubscription, {
    variables: { sessionId },
    onData({ client, data }) {
      const proposal = data.data?.continuationProposals;
      if (proposal) markPendingProposal(client.cache, sessionId, proposal);
    },
  });

  const [now, setNow] = useState(() => Date.now());
  const expiresAt = session.pendingProposal?.expiresAt;
  // A proposal expires without anyone saying so: look again at that moment.
  useEffect(() => {
    if (!expiresAt) return;
    const timer = window.setTimeout(() => setNow(Date.now()), Math.max(0, Date.parse(expiresAt) - Date.now()) + 100);
    return () => window.clearTimeout(timer);
  }, [expiresAt]);

  const activity = activityOf(session, now);
  if (!activity) return null;
  return <span className={`activity-badge activity-badge-${activity}`}>{BADGE_TEXT[activity]}</span>;
}
