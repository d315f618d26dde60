import { useSubscription } from '@apollo/client/react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { graphql } from '../../gql';
import type { TranscriptEventFragment } from '../../gql/graphql';
import { readTransitionCard } from './continuation-events';
import type { ContinuedElsewhere } from './ContinuationNotice';
import { decideFollow } from './follow-decision';
import { hasFollowed, rememberFollowed } from './followed-continuations';

export const SessionContinuedSubscription = graphql(`
  subscription SessionContinued($sessionId: ID!) {
    sessionContinued(sessionId: $sessionId) {
      edge {
        id
        reason
        actor
      }
      predecessor {
        id
        status
        currentContinuation {
          id
          title
          status
        }
        ...LineageBreadcrumb
      }
      successor {
        id
        title
      }
    }
  }
`);

/** Location state of a page reached by following a continuation. */
export interface FollowedState {
  followedContinuation: string;
}

export function isFollowedState(state: unknown): state is FollowedState {
  return typeof state === 'object' && state !== null && typeof (state as FollowedState).followedContinuation === 'string';
}

/** How the dialog and the branch composer tell the follower that this tab asks for a continuation. */
export interface ContinuationInitiation {
  /** Call before sending the request: its announcement may arrive before its answer. */
  begin(): void;
  /** The request failed or was refused: nothing to follow. */
  abandon(): void;
  /** The request succeeded: follow it unless the person has moved on meanwhile. */
  follow(continuation: ContinuedElsewhere): void;
}

/**
 * Listens for continuations of the session on screen, whoever made them (a person elsewhere,
 * the agent, or the runtime when the context was full), and either follows one (a history
 * push, so Back returns here) or reports it in `continuedElsewhere`, as `decideFollow` rules.
 * `isFollowingTranscript` is read at that moment: whether the transcript is at its live end.
 *
 * A continuation is heard twice: announced by `sessionContinued`, and as the card it appends to
 * the transcript (`events`, null until the server has answered the transcript on this visit).
 * The announcement's subscription hears only what commits after it is in place, so a
 * continuation made as the page opens would be missed; the transcript's subscription resumes
 * where the page loaded, so the card arrives all the same. Each continuation is settled once.
 */
export function useContinuationFollower(sessionId: string, isFollowingTranscript: () => boolean, events: readonly TranscriptEventFragment[] | null) {
  const navigate = useNavigate();
  const location = useLocation();
  const [continuedElsewhere, setContinuedElsewhere] = useState<ContinuedElsewhere | null>(null);
  const mounted = useRef(false);
  const arrivalKey = useRef(location.key);
  const currentKey = useRef(location.key);
  const initiationKey = useRef<string | null>(null);

  useEffect(() => {
    currentKey.current = location.key;
  }, [location.key]);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const settle = useCallback(
    (continuation: ContinuedElsewhere, initiatedHere: boolean) => {
      const since = initiatedHere && initiationKey.current !== null ? initiationKey.current : arrivalKey.current;
      const decision = decideFollow({
        viewingPredecessor: mounted.current,
        initiatedHere,
        followingTranscript: isFollowingTranscript(),
        navigatedSince: currentKey.current !== since,
        alreadyFollowed: hasFollowed(window.sessionStorage, continuation.edgeId),
      });
      if (decision === 'navigate') {
        rememberFollowed(window.sessionStorage, continuation.edgeId);
        const state: FollowedState = { followedContinuation: continuation.edgeId };
        void navigate(`/sessions/${continuation.successorId}`, { state });
      } else if (decision === 'notify') {
        setContinuedElsewhere(continuation);
      }
    },
    [isFollowingTranscript, navigate],
  );

  const settled = useRef(new Set<string>());
  const settleOnce = useCallback(
    (continuation: ContinuedElsewhere, initiatedHere: boolean) => {
      if (settled.current.has(continuation.edgeId)) return;
      settled.current.add(continuation.edgeId);
      settle(continuation, initiatedHere);
    },
    [settle],
  );

  const hearCard = useCallback((continuation: ContinuedElsewhere) => settleOnce(continuation, initiationKey.current !== null), [settleOnce]);
  useCardsAppendedSinceLoad(events, hearCard);

  const { error } = useSubscription(SessionContinuedSubscription, {
    variables: { sessionId },
    onData({ data }) {
      const announced = data.data?.sessionContinued;
      if (!announced) return;
      settleOnce(
        {
          edgeId: announced.edge.id,
          successorId: announced.successor.id,
          successorTitle: announced.successor.title,
          reason: announced.edge.reason,
          actor: announced.edge.actor,
        },
        initiationKey.current !== null,
      );
    },
  });

  const initiation = useMemo<ContinuationInitiation>(
    () => ({
      begin() {
        initiationKey.current = currentKey.current;
      },
      abandon() {
        initiationKey.current = null;
      },
      follow(continuation) {
        settleOnce(continuation, true);
        initiationKey.current = null;
      },
    }),
    [settleOnce],
  );

  return {
    continuedElsewhere,
    dismissContinuedElsewhere: () => setContinuedElsewhere(null),
    initiation,
    error,
  };
}

/**
 * Calls `hear` with the continuation of each transition card that arrives in `events` after the
 * transcript the server first answered on this visit; the cards in that one were written before.
 */
function useCardsAppendedSinceLoad(events: readonly TranscriptEventFragment[] | null, hear: (continuation: ContinuedElsewhere) => void) {
  const heardThroughSeq = useRef<number | null>(null);
  useEffect(() => {
    if (events === null) return;
    const since = heardThroughSeq.current;
    heardThroughSeq.current = Math.max(since ?? 0, events.at(-1)?.seq ?? 0);
    if (since === null) return;
    for (const event of events) {
      const card = event.seq > since && event.kind === 'CONTINUATION' ? readTransitionCard(event.data) : null;
      if (!card) continue;
      const { edgeId, successorId, successorTitle, reason, actor } = card;
      hear({ edgeId, successorId, successorTitle, reason, actor: actor ?? undefined });
    }
  }, [events, hear]);
}
