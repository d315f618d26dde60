import type { Transport } from './transport.js';
import { TransportError } from './errors.js';
import { CONTINUATION_EDGE, SESSION_EVENTS } from './operations.js';
import type { ContinuationEdge, Event } from './types.js';

export interface FollowHandlers {
  /** Each event once, in order: the session's, then its successor's from its first event on. */
  onEvent(event: Event): void;
  /** The followed session was continued; the successor's events follow. */
  onContinued?(edge: ContinuationEdge): void;
  /** Following stopped: the session is not readable, or the edge of a continuation could not be read. */
  onError?(error: TransportError): void;
  /** Start after this seq of the first session (default 0: its whole transcript). */
  afterSeq?: number;
}

interface TransitionCard {
  role: 'transition_card';
  edgeId: string;
  successorId: string;
}

function transitionCard(event: Event): TransitionCard | null {
  const data = event.data as Partial<TransitionCard> | null;
  return event.kind === 'CONTINUATION' && data?.role === 'transition_card' && data.edgeId && data.successorId ? (data as TransitionCard) : null;
}

/**
 * Follows a conversation across continuations through the `sessionEvents` subscription.
 *
 * A continuation appends its transition card to the predecessor in the same transaction that
 * creates the edge, and a continued session takes no more messages, so the card is the last event
 * the predecessor delivers: the follower moves to the successor there and reads it from its first
 * event. After a dropped socket the subscription resumes after the last event delivered.
 */
export function followConversation(client: Transport, sessionId: string, handlers: FollowHandlers): () => void {
  let stopped = false;
  let unsubscribe = () => {};

  const fail = (error: TransportError) => {
    if (stopped) return;
    stop();
    handlers.onError?.(error);
  };

  const follow = (followedId: string, afterSeq: number) => {
    let lastSeq = afterSeq;
    // graphql-ws sends these variables again after a reconnect: the getter resumes after the last event seen.
    const variables = {
      sessionId: followedId,
      get afterSeq() {
        return lastSeq;
      },
    };
    unsubscribe = client.subscribe(SESSION_EVENTS, variables, {
      next: ({ sessionEvents: event }) => {
        // An event already on its way when the socket dropped is sent again after the resume.
        if (stopped || event.seq <= lastSeq) return;
        lastSeq = event.seq;
        handlers.onEvent(event);
        const card = transitionCard(event);
        if (card) void moveOn(card);
      },
      error: fail,
    });
  };

  const moveOn = async (card: TransitionCard) => {
    unsubscribe();
    try {
      const { continuationEdge: edge } = await client.request(CONTINUATION_EDGE, { id: card.edgeId });
      if (stopped) return;
      if (!edge) throw new TransportError(`The continuation ${card.edgeId} could not be read.`);
      handlers.onContinued?.(edge);
    } catch (error) {
      return fail(error instanceof TransportError ? error : new TransportError(String(error), { cause: error }));
    }
    if (!stopped) follow(card.successorId, 0);
  };

  const stop = () => {
    stopped = true;
    unsubscribe();
  };

  follow(sessionId, handlers.afterSeq ?? 0);
  return stop;
}
