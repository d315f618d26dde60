/**
 * The payloads the server writes into CONTINUATION events (and the SYSTEM note of a proposal). `Event.data` is free-form JSON, so
 * each is read field by field: a malformed payload renders as a plain event, never crashes.
 */

/** The durable card at the end of a predecessor. */
export interface TransitionCardData {
  edgeId: string;
  successorId: string;
  successorTitle: string;
  reason: string;
  /** e.g. "the current request, 2 decisions and 1 source" (the server counts the cited sources only) */
  carried: string;
  /** AGENT, USER or SYSTEM; absent from cards written before the server recorded it. */
  actor: string | null;
}

/** The event opening a successor. */
export interface SuccessorBannerData {
  edgeId: string;
  predecessorId: string;
  predecessorTitle: string;
  reason: string;
}

type Payload = Record<string, unknown>;

function payloadWithRole(data: unknown, role: string): Payload | null {
  if (typeof data !== 'object' || data === null) return null;
  const payload = data as Payload;
  return payload.role === role ? payload : null;
}

function strings<K extends string>(payload: Payload, keys: readonly K[]): Record<K, string> | null {
  const picked = {} as Record<K, string>;
  for (const key of keys) {
    const value = payload[key];
    if (typeof value !== 'string') return null;
    picked[key] = value;
  }
  return picked;
}

export function readTransitionCard(data: unknown): TransitionCardData | null {
  const payload = payloadWithRole(data, 'transition_card');
  if (!payload) return null;
  const card = strings(payload, ['edgeId', 'successorId', 'successorTitle', 'reason', 'carried'] as const);
  return card && { ...card, actor: typeof payload.actor === 'string' ? payload.actor : null };
}

export function readSuccessorBanner(data: unknown): SuccessorBannerData | null {
  const payload = payloadWithRole(data, 'banner');
  return payload && strings(payload, ['edgeId', 'predecessorId', 'predecessorTitle', 'reason'] as const);
}

/** The runtime's note, in an ASK session, that the agent proposed a continuation for a person to decide. */
export function readProposalNote(data: unknown): { proposalId: string } | null {
  const payload = payloadWithRole(data, 'continuation_proposal');
  return payload && strings(payload, ['proposalId'] as const);
}
