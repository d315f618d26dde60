import type { Actor, ContinuationReason } from '../../gql/graphql';

/** Why a session was continued, as a sentence's first half. */
const REASON_IN_WORDS: Record<ContinuationReason, string> = {
  TOPIC_CHANGE: 'The topic changed',
  PHASE_CHANGE: 'A new phase began',
  CONTEXT_PRESSURE: 'The context was full',
  USER_REQUEST: 'You asked for a new session',
  OTHER: 'Another reason (see the handoff)',
};

/** The same in a word or two, where a line is short (the lineage map). */
const REASON_IN_BRIEF: Record<ContinuationReason, string> = {
  TOPIC_CHANGE: 'Topic changed',
  PHASE_CHANGE: 'New phase',
  CONTEXT_PRESSURE: 'Context was full',
  USER_REQUEST: 'On request',
  OTHER: 'Other reason',
};

/** Who continued, as the subject of a sentence. */
const ACTOR_IN_WORDS: Record<Actor, string> = {
  USER: 'you',
  AGENT: 'the agent',
  SYSTEM: 'the runtime',
};

function known<T extends string>(table: Record<T, string>, value: string): value is T {
  return value in table;
}

/** Any reason the server may add later still reads as a reason. */
export function reasonInWords(reason: string): string {
  return known(REASON_IN_WORDS, reason) ? REASON_IN_WORDS[reason] : REASON_IN_WORDS.OTHER;
}

export function reasonInBrief(reason: string): string {
  return known(REASON_IN_BRIEF, reason) ? REASON_IN_BRIEF[reason] : REASON_IN_BRIEF.OTHER;
}

/** "the agent", "you", "the runtime": who continued a session or named its sources. */
export function actorInWords(actor: string): string {
  return known(ACTOR_IN_WORDS, actor) ? ACTOR_IN_WORDS[actor] : 'someone';
}

/**
 * Why and by whom, in one sentence: "The context was full; the runtime continued in a new
 * session." Without the actor (an older transition card), the reason alone.
 */
export function transitionInWords(reason: string, actor?: string | null): string {
  if (!actor) return `${reasonInWords(reason)}.`;
  if (actor === 'USER' && reason === 'USER_REQUEST') return 'You continued in a new session.';
  return `${reasonInWords(reason)}; ${actorInWords(actor)} continued in a new session.`;
}
