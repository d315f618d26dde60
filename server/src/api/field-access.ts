import { ApiKeyScope } from '../shared/access';
import type { SessionThing } from './session-reach';

/**
 * What a root field asks of a session-limited key:
 * - `none`: nothing of a session (the viewer, the tool definition, keys made within the key's reach);
 * - `account`: account-wide data, refused to a key limited to sessions;
 * - `names`: the argument at `path` names a thing whose session must be in reach (else NOT_FOUND);
 * - `result`: the answer is one object, null when its session is out of reach;
 * - `filtered`: a list or stream, keeping only what lies in reach.
 */
export type SessionRule =
  | { kind: 'none' }
  | { kind: 'account' }
  | { kind: 'names'; thing: SessionThing; path: string[] }
  | { kind: 'result' }
  | { kind: 'filtered'; path?: string[] };

export interface FieldAccess {
  scope: ApiKeyScope;
  sessions: SessionRule;
}

const { READ, WRITE, ADMIN } = ApiKeyScope;
const none = (scope: ApiKeyScope): FieldAccess => ({ scope, sessions: { kind: 'none' } });
const account = (scope: ApiKeyScope): FieldAccess => ({ scope, sessions: { kind: 'account' } });
const names = (scope: ApiKeyScope, thing: SessionThing, ...path: string[]): FieldAccess => ({ scope, sessions: { kind: 'names', thing, path } });
const result = (scope: ApiKeyScope): FieldAccess => ({ scope, sessions: { kind: 'result' } });
/** A list, or with `path` an optional argument naming a session (checked when given, the list filtered when not). */
const filtered = (scope: ApiKeyScope, ...path: string[]): FieldAccess => ({ scope, sessions: { kind: 'filtered', ...(path.length ? { path } : {}) } });

/**
 * The one table of access: every root field of the schema, with the scope it needs and how a
 * session-limited key reaches it. A field missing here needs ADMIN, and a test fails until it is listed.
 */
export const FIELD_ACCESS: Record<'Query' | 'Mutation' | 'Subscription', Record<string, FieldAccess>> = {
  Query: {
    viewer: none(READ),
    node: result(READ),
    session: result(READ),
    sessions: filtered(READ),
    event: result(READ),
    eventRange: names(READ, 'session', 'sessionId'),
    continuationEdge: result(READ),
    projectionManifest: result(READ),
    previewProjection: names(READ, 'session', 'input', 'sessionId'),
    resource: account(READ),
    resourceVersion: account(READ),
    memory: account(READ),
    continueSessionTool: none(READ),
    searchEvents: filtered(READ, 'sessionId'),
    recommendSources: names(READ, 'session', 'sessionId'),
    continuationProposal: result(READ),
    attachment: none(READ),
    apiKeys: account(ADMIN),
    webhookEndpoints: account(ADMIN),
    erasures: account(ADMIN),
  },
  Mutation: {
    createSession: account(WRITE),
    postMessage: names(WRITE, 'session', 'input', 'sessionId'),
    continueSession: names(WRITE, 'session', 'input', 'sessionId'),
    forkSession: names(WRITE, 'event', 'input', 'eventId'),
    updatePlan: names(WRITE, 'session', 'input', 'sessionId'),
    putResource: account(WRITE),
    revokeResource: account(WRITE),
    writeMemory: account(WRITE),
    retryRun: names(WRITE, 'run', 'runId'),
    cancelRun: names(WRITE, 'run', 'runId'),
    setContinuationApproval: names(WRITE, 'session', 'sessionId'),
    approveContinuation: names(WRITE, 'proposal', 'input', 'proposalId'),
    rejectContinuation: names(WRITE, 'proposal', 'proposalId'),
    createAccount: account(ADMIN),
    createApiKey: none(ADMIN),
    revokeApiKey: account(ADMIN),
    createWebhookEndpoint: account(ADMIN),
    deleteWebhookEndpoint: account(ADMIN),
    redeliverWebhook: account(ADMIN),
    eraseSession: names(ADMIN, 'session', 'input', 'sessionId'),
    redactEvent: names(ADMIN, 'event', 'eventId'),
    setRetentionPolicy: account(ADMIN),
  },
  Subscription: {
    sessionContinued: filtered(READ, 'sessionId'),
    sessionEvents: names(READ, 'session', 'sessionId'),
    runUpdated: names(READ, 'session', 'sessionId'),
    runOutput: names(READ, 'run', 'runId'),
    continuationProposals: names(READ, 'session', 'sessionId'),
  },
};

/** The access a root field needs: ADMIN and account-wide for a field the table does not list. */
export function fieldAccess(rootType: keyof typeof FIELD_ACCESS, field: string): FieldAccess {
  return FIELD_ACCESS[rootType][field] ?? account(ADMIN);
}
