import type { Actor, ContinuationReason } from '../../gql/graphql';

/** Why a session was continued, as the transition card and banner say it. */
const REASON_IN_WORDS: Record<ContinuationReason, string> = {
  TOPIC_CHANGE: 'Topic changed',
  PHASE_CHANGE: 'Phase changed',
  CONTEXT_PRESSURE: 'Context was crowded',
  USER_REQUEST: 'You asked for it',
  OTHER: 'Other',
};

export const ACTOR_IN_WORDS: Record<Actor, string> = {
  USER: 'a person',
  AGENT: 'the agent',
  SYSTEM: 'the runtime',
};

/** Any reason the server may add later still reads as a reason. */
export function reasonInWords(reason: string): string {
  return reason in REASON_IN_WORDS ? REASON_IN_WORDS[reason as ContinuationReason] : REASON_IN_WORDS.OTHER;
}
