import { canonicalJson } from '../../shared/canonical-json';
import { ErrorDetail } from '../../shared/errors';
import { sha256 } from '../../shared/sha256';
import { validateSessionText } from '../conversation/sessions';

export const ContinuationReason = {
  TOPIC_CHANGE: 'TOPIC_CHANGE',
  PHASE_CHANGE: 'PHASE_CHANGE',
  CONTEXT_PRESSURE: 'CONTEXT_PRESSURE',
  USER_REQUEST: 'USER_REQUEST',
  OTHER: 'OTHER',
} as const;
export type ContinuationReason = (typeof ContinuationReason)[keyof typeof ContinuationReason];

export const Actor = { AGENT: 'AGENT', USER: 'USER', SYSTEM: 'SYSTEM' } as const;
export type Actor = (typeof Actor)[keyof typeof Actor];

export const SourceKind = {
  SESSION_EVENTS: 'SESSION_EVENTS',
  SESSION_EVENT: 'SESSION_EVENT',
  RESOURCE: 'RESOURCE',
  MEMORY: 'MEMORY',
  ATTACHMENT: 'ATTACHMENT',
} as const;
export type SourceKind = (typeof SourceKind)[keyof typeof SourceKind];

export const PlanTransfer = { CARRY: 'CARRY', CLOSE: 'CLOSE', OMIT: 'OMIT' } as const;
export type PlanTransfer = (typeof PlanTransfer)[keyof typeof PlanTransfer];

export interface Handoff {
  purpose: string;
  currentRequest: string;
  establishedFacts: string[];
  decisions: string[];
  openQuestions: string[];
  nextActions: string[];
  cautions: string[];
}

/** A cited source as the caller gave it; which fields are set depends on `kind`. */
export interface SourceInput {
  kind: SourceKind;
  relevance: string;
  sessionId?: string | null;
  fromEventId?: string | null;
  toEventId?: string | null;
  eventId?: string | null;
  url?: string | null;
  version?: string | null;
  blockId?: string | null;
  path?: string | null;
  cid?: string | null;
}

export interface ResourceRef {
  url: string;
  version: string | null;
  blockId: string | null;
}

export interface TransferInput {
  plan?: PlanTransfer | null;
  pendingRuns?: string[] | null;
  pinnedTools?: string[] | null;
  pinnedResources?: { url: string; version?: string | null; blockId?: string | null }[] | null;
}

export interface ContinueSessionRequest {
  sessionId: string;
  idempotencyKey: string;
  reason: ContinuationReason;
  title: string;
  description?: string | null;
  handoff: Partial<Handoff> & { purpose: string; currentRequest: string };
  sources: SourceInput[];
  transfer?: TransferInput | null;
  initiatingEventId?: string | null;
  tokenBudget?: number | null;
  /** Who decided: the agent (default) or a person who confirmed it; the runtime's own SYSTEM is not for callers. */
  actor?: Actor | null;
  /** Fill the budget left after the cited sources with sources recommended for the handoff's purpose and request. */
  assist?: boolean | null;
}

/** What a successor received of its predecessor's structured state. */
export interface TransferredState {
  plan: PlanTransfer;
  planRevision: number | null;
  pendingRunIds: string[];
  pinnedTools: string[];
  pinnedResources: ResourceRef[];
}

export const CONTINUATION_LIMITS = {
  idempotencyKeyChars: 200,
  handoffTextChars: 20_000,
  handoffListItems: 50,
  sources: 100,
  relevanceChars: 500,
  referenceChars: 2_000,
  transferItems: 50,
  minTokenBudget: 64,
  maxTokenBudget: 1_000_000,
} as const;

/** The fields each source kind requires; every other reference field must be absent. */
export const SOURCE_FIELDS: Record<SourceKind, { required: (keyof SourceInput)[]; optional: (keyof SourceInput)[] }> = {
  SESSION_EVENTS: { required: ['sessionId', 'fromEventId', 'toEventId'], optional: [] },
  SESSION_EVENT: { required: ['sessionId', 'eventId'], optional: [] },
  RESOURCE: { required: ['url'], optional: ['version', 'blockId'] },
  MEMORY: { required: ['path'], optional: ['cid'] },
  ATTACHMENT: { required: ['cid'], optional: [] },
};
const REFERENCE_FIELDS: (keyof SourceInput)[] = [
  'sessionId',
  'fromEventId',
  'toEventId',
  'eventId',
  'url',
  'version',
  'blockId',
  'path',
  'cid',
];

const HANDOFF_LISTS = ['establishedFacts', 'decisions', 'openQuestions', 'nextActions', 'cautions'] as const;

function checkText(details: ErrorDetail[], path: string[], value: string | null | undefined, max: number, required: boolean) {
  if (value == null) {
    if (required) details.push({ path, message: 'Required.' });
  } else if (required && value.trim().length === 0) {
    details.push({ path, message: 'Must not be empty.' });
  } else if (value.length > max) {
    details.push({ path, message: `Must be at most ${max} characters.` });
  }
}

/** Problems with the shape of a continuation request (not whether what it names exists). */
export function validateContinueSessionRequest(input: ContinueSessionRequest): ErrorDetail[] {
  const details: ErrorDetail[] = validateSessionText(input, ['input']);
  const limits = CONTINUATION_LIMITS;
  if (input.actor === Actor.SYSTEM) {
    details.push({ path: ['input', 'actor'], message: 'SYSTEM continuations are made by the runtime itself; use AGENT or USER.' });
  }
  checkText(details, ['input', 'idempotencyKey'], input.idempotencyKey, limits.idempotencyKeyChars, true);
  checkText(details, ['input', 'handoff', 'purpose'], input.handoff.purpose, limits.handoffTextChars, true);
  checkText(details, ['input', 'handoff', 'currentRequest'], input.handoff.currentRequest, limits.handoffTextChars, true);
  for (const list of HANDOFF_LISTS) {
    const items = input.handoff[list] ?? [];
    if (items.length > limits.handoffListItems) {
      details.push({ path: ['input', 'handoff', list], message: `At most ${limits.handoffListItems} items.` });
    }
    items.forEach((item, index) =>
      checkText(details, ['input', 'handoff', list, String(index)], item, limits.handoffTextChars, true),
    );
  }
  if (input.sources.length > limits.sources) {
    details.push({ path: ['input', 'sources'], message: `At most ${limits.sources} sources.` });
  }
  input.sources.forEach((source, index) => {
    const path = ['input', 'sources', String(index)];
    checkText(details, [...path, 'relevance'], source.relevance, limits.relevanceChars, true);
    const shape = SOURCE_FIELDS[source.kind];
    for (const field of REFERENCE_FIELDS) {
      const value = source[field];
      if (shape.required.includes(field)) {
        checkText(details, [...path, field], value as string | null | undefined, limits.referenceChars, true);
      } else if (shape.optional.includes(field)) {
        checkText(details, [...path, field], value as string | null | undefined, limits.referenceChars, false);
      } else if (value != null) {
        details.push({ path: [...path, field], message: `A ${source.kind} source has no ${field}.` });
      }
    }
  });
  const transfer = input.transfer;
  for (const list of ['pendingRuns', 'pinnedTools', 'pinnedResources'] as const) {
    const items = transfer?.[list] ?? [];
    if (items.length > limits.transferItems) {
      details.push({ path: ['input', 'transfer', list], message: `At most ${limits.transferItems} items.` });
    }
  }
  const budget = input.tokenBudget;
  if (budget != null && (!Number.isInteger(budget) || budget < limits.minTokenBudget || budget > limits.maxTokenBudget)) {
    details.push({
      path: ['input', 'tokenBudget'],
      message: `tokenBudget must be an integer from ${limits.minTokenBudget} to ${limits.maxTokenBudget}.`,
    });
  }
  return details;
}

/** The handoff with every list present, as stored and shown. */
export function normalizeHandoff(handoff: ContinueSessionRequest['handoff']): Handoff {
  return {
    purpose: handoff.purpose,
    currentRequest: handoff.currentRequest,
    establishedFacts: handoff.establishedFacts ?? [],
    decisions: handoff.decisions ?? [],
    openQuestions: handoff.openQuestions ?? [],
    nextActions: handoff.nextActions ?? [],
    cautions: handoff.cautions ?? [],
  };
}

/**
 * sha256 of the canonical request, absent and null fields alike: replaying an idempotency key
 * with a request that differs in anything but the key is IDEMPOTENCY_KEY_REUSED.
 */
export function requestFingerprint(input: ContinueSessionRequest, actor: Actor): string {
  const sources = input.sources.map((source) =>
    Object.fromEntries(Object.entries(source).filter(([, value]) => value != null)),
  );
  const canonical = canonicalJson({
    actor,
    sessionId: input.sessionId,
    reason: input.reason,
    title: input.title,
    description: input.description ?? null,
    handoff: normalizeHandoff(input.handoff),
    sources,
    transfer: {
      plan: input.transfer?.plan ?? null,
      pendingRuns: input.transfer?.pendingRuns ?? [],
      pinnedTools: input.transfer?.pinnedTools ?? [],
      pinnedResources: (input.transfer?.pinnedResources ?? []).map((ref) => ({
        url: ref.url,
        version: ref.version ?? null,
        blockId: ref.blockId ?? null,
      })),
    },
    initiatingEventId: input.initiatingEventId ?? null,
    tokenBudget: input.tokenBudget ?? null,
    // Only when asked for, so that the requests of before keep their fingerprints.
    ...(input.assist ? { assist: true } : {}),
  });
  return sha256(canonical);
}

export interface LineageIds {
  originId: string;
  predecessorId: string;
  edgeId: string;
  initiatingEventId: string;
  manifestId: string;
}

/** The runtime-generated lineage block every successor receives (never written by the agent). */
export function lineageBlock(ids: LineageIds): string {
  return [
    '<session_continuation>',
    `  <origin session="${ids.originId}" />`,
    `  <predecessor session="${ids.predecessorId}" edge="${ids.edgeId}" />`,
    `  <initiating_event id="${ids.initiatingEventId}" />`,
    `  <projection manifest="${ids.manifestId}" />`,
    '</session_continuation>',
  ].join('\n');
}

/** Continuations in a row permitted along one lineage without a new user message between them. */
export function nextContinuationStreak(predecessorStreak: number, predecessorHasNewUserMessage: boolean): number {
  return predecessorHasNewUserMessage ? 1 : predecessorStreak + 1;
}

/** "the current request, 2 decisions, 4 sources": what a transition card says was carried. */
export function describeCarried(
  handoff: Handoff,
  handoffIncluded: boolean,
  includedSources: number,
  transferred: TransferredState,
): string {
  const parts = ['the current request'];
  const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  // A handoff left out for the budget carried none of its decisions, facts or questions.
  if (handoffIncluded) {
    if (handoff.decisions.length) parts.push(count(handoff.decisions.length, 'decision', 'decisions'));
    if (handoff.establishedFacts.length) parts.push(count(handoff.establishedFacts.length, 'fact', 'facts'));
    if (handoff.openQuestions.length) parts.push(count(handoff.openQuestions.length, 'open question', 'open questions'));
  }
  if (includedSources) parts.push(count(includedSources, 'source', 'sources'));
  if (transferred.plan === PlanTransfer.CARRY) parts.push('the plan');
  if (transferred.pendingRunIds.length) parts.push(count(transferred.pendingRunIds.length, 'pending run', 'pending runs'));
  return parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}
