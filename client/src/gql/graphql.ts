/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** Who made a transition. */
export type Actor =
  /** The agent, through the continue_session tool or the API. */
  | 'AGENT'
  /** The runtime itself. */
  | 'SYSTEM'
  /** A person, e.g. by branching from a continued session. */
  | 'USER';

/** Sections of a projected context, in the order the compiler fills them. */
export type ContextSectionKind =
  /** Exact events and content of cited and recommended sources, as far as the budget allows. */
  | 'EXCERPT'
  /** The agent-written handoff. */
  | 'HANDOFF'
  /** The account, its grants and the agent's tools. */
  | 'IDENTITY'
  /** The user message that caused the continuation, exactly. */
  | 'INITIATING_MESSAGE'
  /** The runtime-generated lineage block: where this session sits among its predecessors. */
  | 'LINEAGE'
  /** How to recall each source left out for the budget (or one line for all of them). */
  | 'OMITTED_HANDLES'
  /** Content of the pinned resources. */
  | 'PINNED_SOURCE'
  /** The predecessor's last events before the initiating message (up to 8). */
  | 'RECENT_EXCHANGE'
  /** The structured state carried: plan, pending runs, pinned tools and resources. */
  | 'STATE'
  /** How to read a projection: the handoff is orientation, exact sources win, omitted ones are recalled. */
  | 'SYSTEM';

/** Why a session was continued. */
export type ContinuationReason =
  /** The transcript approached the model's context budget. */
  | 'CONTEXT_PRESSURE'
  /** Another reason, explained in the handoff. */
  | 'OTHER'
  /** One phase of the work ended and another began. */
  | 'PHASE_CHANGE'
  /** The user changed to a substantially different subject. */
  | 'TOPIC_CHANGE'
  /** The user asked for a fresh session. */
  | 'USER_REQUEST';

/** One of four shapes, chosen by kind: SESSION_EVENTS (sessionId, fromEventId, toEventId), SESSION_EVENT (sessionId, eventId), RESOURCE (url, version?, blockId?), MEMORY (path, cid?). Other fields must be absent. */
export type ContinuationSourceInput = {
  /** RESOURCE: one block of the version; absent: the whole version. */
  blockId?: string | null | undefined;
  /** MEMORY: an exact entry's content id; absent: the entry the path names now. */
  cid?: string | null | undefined;
  /** SESSION_EVENT: the event. */
  eventId?: string | number | null | undefined;
  /** SESSION_EVENTS: the first event of the range. */
  fromEventId?: string | number | null | undefined;
  /** Which shape the source has; it decides which other fields are required. */
  kind: SourceKind;
  /** MEMORY: the memory path. */
  path?: string | null | undefined;
  /** Why the successor needs it; 1 to 500 characters. */
  relevance: string;
  /** SESSION_EVENTS and SESSION_EVENT: the session holding the events. */
  sessionId?: string | number | null | undefined;
  /** SESSION_EVENTS: the last event of the range, inclusive; not before fromEventId. */
  toEventId?: string | number | null | undefined;
  /** RESOURCE: the resource url. */
  url?: string | null | undefined;
  /** RESOURCE: an exact version; absent: the latest, pinned as it is now. */
  version?: string | null | undefined;
};

/** A request to continue a session in a fresh successor. Input out of its limits is refused with INVALID_INPUT, a cited source that does not exist with SOURCE_NOT_FOUND; nothing is written then. */
export type ContinueSessionInput = {
  /** Who decided to continue: AGENT (default), or USER when a person asked for or confirmed it. SYSTEM is refused. */
  actor?: Actor | null | undefined;
  /** Fill the budget left after the cited sources with sources that assisted selection recommends for the handoff's purpose and current request (manifest items with origin RECOMMENDED). */
  assist?: boolean | null | undefined;
  /** The successor's description; at most 2,000 characters. */
  description?: string | null | undefined;
  /** The agent-written orientation for the successor. */
  handoff: HandoffInput;
  /** Replaying a key returns the successor created for it; the same key with a different request is IDEMPOTENCY_KEY_REUSED. 1 to 200 characters, unique per account. */
  idempotencyKey: string;
  /** Defaults to the predecessor's latest user message. */
  initiatingEventId?: string | number | null | undefined;
  /** Why the predecessor is continued. */
  reason: ContinuationReason;
  /** The predecessor. */
  sessionId: string | number;
  /** Exact sources to cite, most relevant first (at most 100). */
  sources: Array<ContinuationSourceInput>;
  /** The successor's title; 1 to 200 characters. */
  title: string;
  /** Token budget of the successor's initial context (64 to 1,000,000); the server's default (8,000) when absent. */
  tokenBudget?: number | null | undefined;
  /** Structured state to carry exactly; absent: nothing is carried and the plan stays behind. */
  transfer?: TransferInput | null | undefined;
};

/** A new ROOT session. */
export type CreateSessionInput = {
  /** At most 2,000 characters. */
  description?: string | null | undefined;
  /** Shown in lists and on transition cards; 1 to 200 characters. */
  title: string;
};

/** Why an operation failed; nothing was written. */
export type ErrorCode =
  /** The continuation would make the lineage a cycle. */
  | 'CYCLE'
  /** The caller may not do this. */
  | 'FORBIDDEN'
  /** The same idempotency key was used for a different request. */
  | 'IDEMPOTENCY_KEY_REUSED'
  /** The input is malformed or out of its documented limits; `details` says where. */
  | 'INVALID_INPUT'
  /** No such object in the caller's account. */
  | 'NOT_FOUND'
  /** Delegated runs are pending: transfer them explicitly or settle them. */
  | 'PENDING_RUNS_NOT_TRANSFERRED'
  /** Too many continuations; wait or send a new user message first. */
  | 'RATE_LIMITED'
  /** Writing to a predecessor: open the current continuation or branch explicitly. */
  | 'SESSION_CONTINUED'
  /** A cited source exists but the caller may not read it. */
  | 'SOURCE_NOT_ACCESSIBLE'
  /** A cited source does not exist. */
  | 'SOURCE_NOT_FOUND'
  /** A run is active or a tool call is unresolved: continue at a turn boundary. */
  | 'TURN_IN_PROGRESS';

/** What kind of entry an event is. */
export type EventKind =
  /** A message written by the agent. */
  | 'ASSISTANT_MESSAGE'
  /** Transition card in a predecessor, or the banner event opening a successor. */
  | 'CONTINUATION'
  /** A note written by the runtime. */
  | 'SYSTEM'
  /** A tool call made by the agent; `toolCallId` pairs it with its result. */
  | 'TOOL_CALL'
  /** The result of the tool call with the same `toolCallId`. */
  | 'TOOL_RESULT'
  /** A message written by the user. */
  | 'USER_MESSAGE';

/** The handoff: orientation for the successor. Each text at most 20,000 characters, each list at most 50 items. */
export type HandoffInput = {
  /** Pitfalls and constraints to keep in mind. */
  cautions?: Array<string> | null | undefined;
  /** What the user asked for, verbatim where possible; required, not empty. */
  currentRequest: string;
  /** Decisions taken, which the successor keeps to. */
  decisions?: Array<string> | null | undefined;
  /** What the work has settled. */
  establishedFacts?: Array<string> | null | undefined;
  /** What to do next, in order. */
  nextActions?: Array<string> | null | undefined;
  /** Questions still open. */
  openQuestions?: Array<string> | null | undefined;
  /** What the successor is for; required, not empty. */
  purpose: string;
};

/** Who selected a manifest item. */
export type ManifestItemOrigin =
  /** Named in the continuation's sources (or its pinned resources). */
  | 'CITED'
  /** Chosen by assisted selection for the handoff's purpose and current request. */
  | 'RECOMMENDED'
  /** Added by the runtime: the initiating message, the recent exchange. */
  | 'RUNTIME';

/** What became of a manifest item in the successor's initial context. */
export type ManifestItemStatus =
  /** Loaded into the successor's initial context. */
  | 'INCLUDED'
  /** Linked but cold: did not fit the budget; reachable through recall. */
  | 'OMITTED'
  /** Revoked or no longer accessible: shown as a broken breadcrumb, never substituted. */
  | 'UNAVAILABLE';

/** What a continuation does with the predecessor's plan. */
export type PlanTransfer =
  /** The successor gets the plan with the same step ids and statuses. */
  | 'CARRY'
  /** The predecessor's plan is closed; the successor starts without one. */
  | 'CLOSE'
  /** The plan stays with the predecessor. */
  | 'OMIT';

/** A user message for a session. */
export type PostMessageInput = {
  /** Content ids of files uploaded beforehand (POST /attachments), in order: at most 20, none twice. A cid the account does not hold is NOT_FOUND, writing nothing. */
  attachments?: Array<string> | null | undefined;
  /** Writing to a CONTINUED session is refused unless this is true; then a new continuation branch is created for the message. */
  branch?: boolean | null | undefined;
  /** Stable client key (1 to 200 characters): replaying the same key returns the first result. */
  clientMessageId?: string | null | undefined;
  /** The session to write to; NOT_FOUND for another account's. */
  sessionId: string | number;
  /** The message; 1 to 100,000 characters, not only white space. */
  text: string;
};

/** A resource version to pin, or one block of it. */
export type ResourceRefInput = {
  /** One block of the version; absent: the whole version. */
  blockId?: string | null | undefined;
  /** The resource url. */
  url: string;
  /** An exact version; absent: the latest, pinned as it is now. */
  version?: string | null | undefined;
};

/** What a run does. */
export type RunKind =
  /** Work done in a child session that reports back to its parent. */
  | 'DELEGATED'
  /** Answers a user message in its session. */
  | 'TURN';

/** Where a run stands. */
export type RunStatus =
  /** Stopped before it settled on its own; it does not run again. */
  | 'CANCELLED'
  /** Settled with an error (see Run.error); retryRun queues it again. */
  | 'FAILED'
  /** Waiting for a worker. */
  | 'QUEUED'
  /** A worker is on it. */
  | 'RUNNING'
  /** Finished; what it produced is recorded in the transcript. */
  | 'SUCCEEDED';

/** Where a search looks. */
export type SearchScope =
  /** Every session of the caller's account. */
  | 'ACCOUNT'
  /** The given session's whole lineage tree: its origin and every continuation, branches included. */
  | 'LINEAGE'
  /** The given session only. */
  | 'SESSION';

/** How a session came to be. */
export type SessionKind =
  /** Delegated work expected to report back to its parent. */
  | 'CHILD'
  /** Successor of exactly one predecessor (foreground replacement). */
  | 'CONTINUATION'
  /** An alternative path from an earlier point of another session. */
  | 'FORK'
  /** A new session with no conversational lineage. */
  | 'ROOT';

/** Where a session stands in its line. */
export type SessionStatus =
  /** The foreground conversation of its line. */
  | 'ACTIVE'
  /** Kept for reference; takes no new messages. */
  | 'ARCHIVED'
  /** Has at least one successor; complete and read-only. */
  | 'CONTINUED';

/** What a cited source or a manifest item names. */
export type SourceKind =
  /** An attachment by content id: carried as a reference (name, media type, size), never as its bytes; a text attachment's content as an excerpt when it fits. */
  | 'ATTACHMENT'
  /** A memory entry by path and content id. */
  | 'MEMORY'
  /** A resource version, or one block of it. */
  | 'RESOURCE'
  /** One event. */
  | 'SESSION_EVENT'
  /** An inclusive range of events of one session. */
  | 'SESSION_EVENTS';

/** Structured state to carry exactly (at most 50 items per list). */
export type TransferInput = {
  /** Every pending delegated run of the predecessor, moved to the successor. */
  pendingRuns?: Array<string | number> | null | undefined;
  /** Resource versions to keep pinned in the successor, each resolved to an exact version now (SOURCE_NOT_FOUND for one that does not exist). */
  pinnedResources?: Array<ResourceRefInput> | null | undefined;
  /** Tool names to keep pinned in the successor. */
  pinnedTools?: Array<string> | null | undefined;
  /** Default OMIT. */
  plan?: PlanTransfer | null | undefined;
};

export type ViewerQueryVariables = Exact<{ [key: string]: never; }>;


export type ViewerQuery = { __typename: 'Query', viewer: { __typename: 'Account', id: string, name: string } };

export type OperationErrorNoticeFieldsFragment = { __typename: 'OperationError', code: ErrorCode, message: string, details: Array<{ __typename: 'ErrorDetail', path: Array<string>, message: string }> };

export type SessionStateFragment = { __typename: 'Session', id: string, status: SessionStatus, currentContinuation: { __typename: 'Session', id: string } };

export type RunStateFragment = { __typename: 'Run', id: string, kind: RunKind, status: RunStatus, error: string | null };

export type SessionAgentStateQueryVariables = Exact<{
  id: string | number;
}>;


export type SessionAgentStateQuery = { __typename: 'Query', session: { __typename: 'Session', id: string, continuationSuggested: boolean, contextUsage: { __typename: 'ContextUsage', tokens: number, windowTokens: number, threshold: number, share: number }, runs: Array<{ __typename: 'Run', id: string, kind: RunKind, status: RunStatus, error: string | null }> } | null };

export type RunUpdatedSubscriptionVariables = Exact<{
  sessionId: string | number;
}>;


export type RunUpdatedSubscription = { __typename: 'Subscription', runUpdated: { __typename: 'Run', id: string, kind: RunKind, status: RunStatus, error: string | null } };

export type CancelRunMutationVariables = Exact<{
  runId: string | number;
}>;


export type CancelRunMutation = { __typename: 'Mutation', cancelRun: { __typename: 'Run', id: string, kind: RunKind, status: RunStatus, error: string | null } };

export type RetryRunMutationVariables = Exact<{
  runId: string | number;
}>;


export type RetryRunMutation = { __typename: 'Mutation', retryRun: { __typename: 'Run', id: string, kind: RunKind, status: RunStatus, error: string | null } };

export type RunOutputSubscriptionVariables = Exact<{
  runId: string | number;
}>;


export type RunOutputSubscription = { __typename: 'Subscription', runOutput: { __typename: 'RunOutputChunk', runId: string, offset: number, text: string } };

export type AttachmentByCidQueryVariables = Exact<{
  cid: string;
}>;


export type AttachmentByCidQuery = { __typename: 'Query', attachment: { __typename: 'Attachment', cid: string, name: string, mediaType: string, byteSize: number, url: string } | null };

export type AttachmentFieldsFragment = { __typename: 'Attachment', cid: string, name: string, mediaType: string, byteSize: number, url: string };

export type SuccessorBannerFragment = { __typename: 'ContinuationEdge', id: string, reason: ContinuationReason, createdAt: string, predecessor: { __typename: 'Session', id: string, title: string } };

export type SessionContinuedSubscriptionVariables = Exact<{
  sessionId: string | number;
}>;


export type SessionContinuedSubscription = { __typename: 'Subscription', sessionContinued: { __typename: 'SessionContinuedEvent', edge: { __typename: 'ContinuationEdge', id: string }, predecessor: { __typename: 'Session', id: string, status: SessionStatus, currentContinuation: { __typename: 'Session', id: string, title: string, status: SessionStatus }, lineage: Array<{ __typename: 'Session', id: string, title: string }>, lineageTree: Array<{ __typename: 'LineageNode', depth: number, session: { __typename: 'Session', id: string, title: string }, edge: { __typename: 'ContinuationEdge', id: string, predecessor: { __typename: 'Session', id: string } } | null }> }, successor: { __typename: 'Session', id: string, title: string } } };

export type ContinueSessionMutationVariables = Exact<{
  input: ContinueSessionInput;
}>;


export type ContinueSessionMutation = { __typename: 'Mutation', continueSession:
    | { __typename: 'ContinueSessionSuccess', edge: { __typename: 'ContinuationEdge', id: string, predecessor: { __typename: 'Session', id: string, status: SessionStatus, currentContinuation: { __typename: 'Session', id: string, title: string, status: SessionStatus } } }, successor: { __typename: 'Session', id: string, title: string, origin: { __typename: 'Session', id: string, currentContinuation: { __typename: 'Session', id: string, title: string, status: SessionStatus, lineage: Array<{ __typename: 'Session', id: string }> } } } }
    | { __typename: 'OperationError', code: ErrorCode, message: string, details: Array<{ __typename: 'ErrorDetail', path: Array<string>, message: string }> }
   };

export type TranscriptBoundsQueryVariables = Exact<{
  id: string | number;
  lastSeq: number;
}>;


export type TranscriptBoundsQuery = { __typename: 'Query', session: { __typename: 'Session', id: string, opening: { __typename: 'EventConnection', edges: Array<{ __typename: 'EventEdge', node: { __typename: 'Event', id: string } }> }, latest: { __typename: 'EventConnection', edges: Array<{ __typename: 'EventEdge', node: { __typename: 'Event', id: string } }> } } | null };

export type PreviewProjectionQueryVariables = Exact<{
  input: ContinueSessionInput;
}>;


export type PreviewProjectionQuery = { __typename: 'Query', previewProjection:
    | { __typename: 'OperationError', code: ErrorCode, message: string, details: Array<{ __typename: 'ErrorDetail', path: Array<string>, message: string }> }
    | { __typename: 'ProjectionPreview', tokenBudget: number, tokenCost: number, context: { __typename: 'ProjectedContext', sections: Array<{ __typename: 'ContextSection', kind: ContextSectionKind, tokenCount: number }> }, items: Array<{ __typename: 'ManifestItem', kind: SourceKind, status: ManifestItemStatus, origin: ManifestItemOrigin, score: number | null, relevance: string, sessionId: string | null, fromEventId: string | null, toEventId: string | null, eventId: string | null, url: string | null, version: string | null, blockId: string | null, path: string | null, cid: string | null, tokenCount: number, hash: string | null }> }
   };

export type HandoffDetailsFragment = { __typename: 'Handoff', purpose: string, currentRequest: string, establishedFacts: Array<string>, decisions: Array<string>, openQuestions: Array<string>, nextActions: Array<string>, cautions: Array<string> };

export type ManifestItemRowFragment = { __typename: 'ManifestItem', kind: SourceKind, status: ManifestItemStatus, origin: ManifestItemOrigin, score: number | null, relevance: string, sessionId: string | null, fromEventId: string | null, toEventId: string | null, eventId: string | null, url: string | null, version: string | null, blockId: string | null, path: string | null, cid: string | null, tokenCount: number, hash: string | null };

export type HandoffInspectionQueryVariables = Exact<{
  edgeId: string | number;
}>;


export type HandoffInspectionQuery = { __typename: 'Query', continuationEdge: { __typename: 'ContinuationEdge', id: string, reason: ContinuationReason, actor: Actor, createdAt: string, predecessor: { __typename: 'Session', id: string, title: string }, successor: { __typename: 'Session', id: string, title: string }, handoff: { __typename: 'Handoff', purpose: string, currentRequest: string, establishedFacts: Array<string>, decisions: Array<string>, openQuestions: Array<string>, nextActions: Array<string>, cautions: Array<string> }, manifest: { __typename: 'ProjectionManifest', id: string, hash: string, compilerVersion: string, modelVersion: string, createdAt: string, lineageBlock: string, tokenBudget: number, tokenCost: number, items: Array<{ __typename: 'ManifestItem', kind: SourceKind, status: ManifestItemStatus, origin: ManifestItemOrigin, score: number | null, relevance: string, sessionId: string | null, fromEventId: string | null, toEventId: string | null, eventId: string | null, url: string | null, version: string | null, blockId: string | null, path: string | null, cid: string | null, tokenCount: number, hash: string | null }>, transferredState: { __typename: 'TransferredState', plan: PlanTransfer, planRevision: number | null, pendingRunIds: Array<string>, pinnedTools: Array<string>, pinnedResources: Array<{ __typename: 'ResourceRef', url: string, version: string, blockId: string | null }> }, context: { __typename: 'ProjectedContext', tokenCount: number, sections: Array<{ __typename: 'ContextSection', kind: ContextSectionKind, text: string, tokenCount: number }> } } } | null };

export type LineageControlFragment = { __typename: 'Session', id: string, lineage: Array<{ __typename: 'Session', id: string, title: string }>, lineageTree: Array<{ __typename: 'LineageNode', depth: number, session: { __typename: 'Session', id: string, title: string }, edge: { __typename: 'ContinuationEdge', id: string, predecessor: { __typename: 'Session', id: string } } | null }> };

export type SessionLineageQueryVariables = Exact<{
  id: string | number;
}>;


export type SessionLineageQuery = { __typename: 'Query', session: { __typename: 'Session', id: string, currentContinuation: { __typename: 'Session', id: string, title: string, status: SessionStatus }, continuedFrom: { __typename: 'ContinuationEdge', id: string, reason: ContinuationReason, createdAt: string, predecessor: { __typename: 'Session', id: string, title: string } } | null, lineage: Array<{ __typename: 'Session', id: string, title: string }>, lineageTree: Array<{ __typename: 'LineageNode', depth: number, session: { __typename: 'Session', id: string, title: string }, edge: { __typename: 'ContinuationEdge', id: string, predecessor: { __typename: 'Session', id: string } } | null }> } | null };

export type EventSearchHitRowFragment = { __typename: 'EventSearchHit', score: number, snippet: string, event: { __typename: 'Event', id: string, seq: number, kind: EventKind, createdAt: string, session: { __typename: 'Session', id: string, title: string } } };

export type SearchEventsQueryVariables = Exact<{
  query: string;
  sessionId?: string | number | null | undefined;
  scope: SearchScope;
  first: number;
  after?: string | null | undefined;
}>;


export type SearchEventsQuery = { __typename: 'Query', searchEvents: { __typename: 'EventSearchConnection', totalCount: number, edges: Array<{ __typename: 'EventSearchHitEdge', cursor: string, node: { __typename: 'EventSearchHit', score: number, snippet: string, event: { __typename: 'Event', id: string, seq: number, kind: EventKind, createdAt: string, session: { __typename: 'Session', id: string, title: string } } } }>, pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, endCursor: string | null } } };

export type SessionSummaryFragment = { __typename: 'Session', id: string, kind: SessionKind, status: SessionStatus, title: string, description: string | null, createdAt: string, currentContinuation: { __typename: 'Session', id: string, title: string, status: SessionStatus, lineage: Array<{ __typename: 'Session', id: string }> } };

export type CreateSessionMutationVariables = Exact<{
  input: CreateSessionInput;
}>;


export type CreateSessionMutation = { __typename: 'Mutation', createSession: { __typename: 'Session', id: string, kind: SessionKind, status: SessionStatus, title: string, description: string | null, createdAt: string, currentContinuation: { __typename: 'Session', id: string, title: string, status: SessionStatus, lineage: Array<{ __typename: 'Session', id: string }> } } };

export type SessionsQueryVariables = Exact<{
  first: number;
  after?: string | null | undefined;
}>;


export type SessionsQuery = { __typename: 'Query', sessions: { __typename: 'SessionConnection', totalCount: number, edges: Array<{ __typename: 'SessionEdge', cursor: string, node: { __typename: 'Session', id: string, kind: SessionKind, status: SessionStatus, title: string, description: string | null, createdAt: string, currentContinuation: { __typename: 'Session', id: string, title: string, status: SessionStatus, lineage: Array<{ __typename: 'Session', id: string }> } } }>, pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, endCursor: string | null } } };

export type TranscriptEventFragment = { __typename: 'Event', id: string, seq: number, kind: EventKind, text: string | null, data: unknown, toolCallId: string | null, tokenCount: number, createdAt: string, attachments: Array<{ __typename: 'Attachment', cid: string, name: string, mediaType: string, byteSize: number, url: string }>, replayOf: { __typename: 'Event', id: string, session: { __typename: 'Session', id: string, title: string } } | null };

export type CitedRangeQueryVariables = Exact<{
  fromEventId: string | number;
  toEventId: string | number;
}>;


export type CitedRangeQuery = { __typename: 'Query', from: { __typename: 'Event', id: string, seq: number, session: { __typename: 'Session', id: string } } | null, to: { __typename: 'Event', id: string, seq: number, session: { __typename: 'Session', id: string } } | null };

export type SessionEventsSubscriptionVariables = Exact<{
  sessionId: string | number;
  afterSeq?: number | null | undefined;
}>;


export type SessionEventsSubscription = { __typename: 'Subscription', sessionEvents: { __typename: 'Event', id: string, seq: number, kind: EventKind, text: string | null, data: unknown, toolCallId: string | null, tokenCount: number, createdAt: string, attachments: Array<{ __typename: 'Attachment', cid: string, name: string, mediaType: string, byteSize: number, url: string }>, replayOf: { __typename: 'Event', id: string, session: { __typename: 'Session', id: string, title: string } } | null } };

export type PostMessageMutationVariables = Exact<{
  input: PostMessageInput;
}>;


export type PostMessageMutation = { __typename: 'Mutation', postMessage:
    | { __typename: 'OperationError', code: ErrorCode, message: string, currentContinuation: { __typename: 'Session', id: string, title: string } | null, details: Array<{ __typename: 'ErrorDetail', path: Array<string>, message: string }> }
    | { __typename: 'PostMessageSuccess', event: { __typename: 'Event', id: string, seq: number, kind: EventKind, text: string | null, data: unknown, toolCallId: string | null, tokenCount: number, createdAt: string, attachments: Array<{ __typename: 'Attachment', cid: string, name: string, mediaType: string, byteSize: number, url: string }>, replayOf: { __typename: 'Event', id: string, session: { __typename: 'Session', id: string, title: string } } | null }, session: { __typename: 'Session', id: string, title: string, status: SessionStatus, eventCount: number, tokenCount: number, continuedFrom: { __typename: 'ContinuationEdge', id: string } | null } }
   };

export type SessionTranscriptQueryVariables = Exact<{
  id: string | number;
  last: number;
  before?: string | null | undefined;
}>;


export type SessionTranscriptQuery = { __typename: 'Query', session: { __typename: 'Session', id: string, kind: SessionKind, status: SessionStatus, title: string, description: string | null, createdAt: string, eventCount: number, tokenCount: number, events: { __typename: 'EventConnection', totalCount: number, edges: Array<{ __typename: 'EventEdge', node: { __typename: 'Event', id: string, seq: number, kind: EventKind, text: string | null, data: unknown, toolCallId: string | null, tokenCount: number, createdAt: string, attachments: Array<{ __typename: 'Attachment', cid: string, name: string, mediaType: string, byteSize: number, url: string }>, replayOf: { __typename: 'Event', id: string, session: { __typename: 'Session', id: string, title: string } } | null } }>, pageInfo: { __typename: 'PageInfo', hasPreviousPage: boolean, hasNextPage: boolean, startCursor: string | null, endCursor: string | null } } } | null };

export const OperationErrorNoticeFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"OperationErrorNoticeFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"OperationError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"details"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]} as unknown as DocumentNode<OperationErrorNoticeFieldsFragment, unknown>;
export const SessionStateFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SessionState"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Session"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"currentContinuation"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]} as unknown as DocumentNode<SessionStateFragment, unknown>;
export const RunStateFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RunState"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Run"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"error"}}]}}]} as unknown as DocumentNode<RunStateFragment, unknown>;
export const AttachmentFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AttachmentFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Attachment"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cid"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"mediaType"}},{"kind":"Field","name":{"kind":"Name","value":"byteSize"}},{"kind":"Field","name":{"kind":"Name","value":"url"}}]}}]} as unknown as DocumentNode<AttachmentFieldsFragment, unknown>;
export const SuccessorBannerFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SuccessorBanner"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ContinuationEdge"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"predecessor"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}}]}}]}}]} as unknown as DocumentNode<SuccessorBannerFragment, unknown>;
export const HandoffDetailsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"HandoffDetails"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Handoff"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"purpose"}},{"kind":"Field","name":{"kind":"Name","value":"currentRequest"}},{"kind":"Field","name":{"kind":"Name","value":"establishedFacts"}},{"kind":"Field","name":{"kind":"Name","value":"decisions"}},{"kind":"Field","name":{"kind":"Name","value":"openQuestions"}},{"kind":"Field","name":{"kind":"Name","value":"nextActions"}},{"kind":"Field","name":{"kind":"Name","value":"cautions"}}]}}]} as unknown as DocumentNode<HandoffDetailsFragment, unknown>;
export const ManifestItemRowFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ManifestItemRow"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ManifestItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"origin"}},{"kind":"Field","name":{"kind":"Name","value":"score"}},{"kind":"Field","name":{"kind":"Name","value":"relevance"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"fromEventId"}},{"kind":"Field","name":{"kind":"Name","value":"toEventId"}},{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"blockId"}},{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"cid"}},{"kind":"Field","name":{"kind":"Name","value":"tokenCount"}},{"kind":"Field","name":{"kind":"Name","value":"hash"}}]}}]} as unknown as DocumentNode<ManifestItemRowFragment, unknown>;
export const LineageControlFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"LineageControl"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Session"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"lineage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}}]}},{"kind":"Field","name":{"kind":"Name","value":"lineageTree"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"depth"}},{"kind":"Field","name":{"kind":"Name","value":"session"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edge"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"predecessor"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]}}]} as unknown as DocumentNode<LineageControlFragment, unknown>;
export const EventSearchHitRowFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"EventSearchHitRow"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"EventSearchHit"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"score"}},{"kind":"Field","name":{"kind":"Name","value":"snippet"}},{"kind":"Field","name":{"kind":"Name","value":"event"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"session"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}}]}}]}}]}}]} as unknown as DocumentNode<EventSearchHitRowFragment, unknown>;
export const SessionSummaryFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SessionSummary"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Session"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"currentContinuation"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"lineage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]} as unknown as DocumentNode<SessionSummaryFragment, unknown>;
export const TranscriptEventFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TranscriptEvent"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Event"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"data"}},{"kind":"Field","name":{"kind":"Name","value":"toolCallId"}},{"kind":"Field","name":{"kind":"Name","value":"tokenCount"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"attachments"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cid"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"mediaType"}},{"kind":"Field","name":{"kind":"Name","value":"byteSize"}},{"kind":"Field","name":{"kind":"Name","value":"url"}}]}},{"kind":"Field","name":{"kind":"Name","value":"replayOf"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"session"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}}]}}]}}]}}]} as unknown as DocumentNode<TranscriptEventFragment, unknown>;
export const ViewerDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Viewer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"viewer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<ViewerQuery, ViewerQueryVariables>;
export const SessionAgentStateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"SessionAgentState"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"session"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"continuationSuggested"}},{"kind":"Field","name":{"kind":"Name","value":"contextUsage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tokens"}},{"kind":"Field","name":{"kind":"Name","value":"windowTokens"}},{"kind":"Field","name":{"kind":"Name","value":"threshold"}},{"kind":"Field","name":{"kind":"Name","value":"share"}}]}},{"kind":"Field","name":{"kind":"Name","value":"runs"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"last"},"value":{"kind":"IntValue","value":"10"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RunState"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RunState"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Run"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"error"}}]}}]} as unknown as DocumentNode<SessionAgentStateQuery, SessionAgentStateQueryVariables>;
export const RunUpdatedDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"RunUpdated"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"runUpdated"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RunState"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RunState"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Run"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"error"}}]}}]} as unknown as DocumentNode<RunUpdatedSubscription, RunUpdatedSubscriptionVariables>;
export const CancelRunDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CancelRun"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"runId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cancelRun"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"runId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"runId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RunState"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RunState"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Run"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"error"}}]}}]} as unknown as DocumentNode<CancelRunMutation, CancelRunMutationVariables>;
export const RetryRunDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RetryRun"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"runId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryRun"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"runId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"runId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RunState"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RunState"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Run"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"error"}}]}}]} as unknown as DocumentNode<RetryRunMutation, RetryRunMutationVariables>;
export const RunOutputDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"RunOutput"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"runId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"runOutput"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"runId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"runId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"runId"}},{"kind":"Field","name":{"kind":"Name","value":"offset"}},{"kind":"Field","name":{"kind":"Name","value":"text"}}]}}]}}]} as unknown as DocumentNode<RunOutputSubscription, RunOutputSubscriptionVariables>;
export const AttachmentByCidDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AttachmentByCid"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"cid"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"attachment"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"cid"},"value":{"kind":"Variable","name":{"kind":"Name","value":"cid"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"AttachmentFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AttachmentFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Attachment"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cid"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"mediaType"}},{"kind":"Field","name":{"kind":"Name","value":"byteSize"}},{"kind":"Field","name":{"kind":"Name","value":"url"}}]}}]} as unknown as DocumentNode<AttachmentByCidQuery, AttachmentByCidQueryVariables>;
export const SessionContinuedDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"SessionContinued"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sessionContinued"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edge"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"predecessor"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"currentContinuation"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"LineageControl"}}]}},{"kind":"Field","name":{"kind":"Name","value":"successor"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"LineageControl"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Session"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"lineage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}}]}},{"kind":"Field","name":{"kind":"Name","value":"lineageTree"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"depth"}},{"kind":"Field","name":{"kind":"Name","value":"session"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edge"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"predecessor"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]}}]} as unknown as DocumentNode<SessionContinuedSubscription, SessionContinuedSubscriptionVariables>;
export const ContinueSessionDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ContinueSession"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ContinueSessionInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"continueSession"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ContinueSessionSuccess"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edge"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"predecessor"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"currentContinuation"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"successor"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"origin"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"currentContinuation"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"lineage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"OperationError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"OperationErrorNoticeFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"OperationErrorNoticeFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"OperationError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"details"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]} as unknown as DocumentNode<ContinueSessionMutation, ContinueSessionMutationVariables>;
export const TranscriptBoundsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TranscriptBounds"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"lastSeq"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"session"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","alias":{"kind":"Name","value":"opening"},"name":{"kind":"Name","value":"events"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"fromSeq"},"value":{"kind":"IntValue","value":"1"}},{"kind":"Argument","name":{"kind":"Name","value":"toSeq"},"value":{"kind":"IntValue","value":"1"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}},{"kind":"Field","alias":{"kind":"Name","value":"latest"},"name":{"kind":"Name","value":"events"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"fromSeq"},"value":{"kind":"Variable","name":{"kind":"Name","value":"lastSeq"}}},{"kind":"Argument","name":{"kind":"Name","value":"toSeq"},"value":{"kind":"Variable","name":{"kind":"Name","value":"lastSeq"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<TranscriptBoundsQuery, TranscriptBoundsQueryVariables>;
export const PreviewProjectionDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"PreviewProjection"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ContinueSessionInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"previewProjection"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ProjectionPreview"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tokenBudget"}},{"kind":"Field","name":{"kind":"Name","value":"tokenCost"}},{"kind":"Field","name":{"kind":"Name","value":"context"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sections"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"tokenCount"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ManifestItemRow"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"OperationError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"OperationErrorNoticeFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ManifestItemRow"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ManifestItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"origin"}},{"kind":"Field","name":{"kind":"Name","value":"score"}},{"kind":"Field","name":{"kind":"Name","value":"relevance"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"fromEventId"}},{"kind":"Field","name":{"kind":"Name","value":"toEventId"}},{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"blockId"}},{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"cid"}},{"kind":"Field","name":{"kind":"Name","value":"tokenCount"}},{"kind":"Field","name":{"kind":"Name","value":"hash"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"OperationErrorNoticeFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"OperationError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"details"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]} as unknown as DocumentNode<PreviewProjectionQuery, PreviewProjectionQueryVariables>;
export const HandoffInspectionDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"HandoffInspection"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"edgeId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"continuationEdge"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"edgeId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"actor"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"predecessor"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}}]}},{"kind":"Field","name":{"kind":"Name","value":"successor"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}}]}},{"kind":"Field","name":{"kind":"Name","value":"handoff"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"HandoffDetails"}}]}},{"kind":"Field","name":{"kind":"Name","value":"manifest"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"hash"}},{"kind":"Field","name":{"kind":"Name","value":"compilerVersion"}},{"kind":"Field","name":{"kind":"Name","value":"modelVersion"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"lineageBlock"}},{"kind":"Field","name":{"kind":"Name","value":"tokenBudget"}},{"kind":"Field","name":{"kind":"Name","value":"tokenCost"}},{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ManifestItemRow"}}]}},{"kind":"Field","name":{"kind":"Name","value":"transferredState"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"plan"}},{"kind":"Field","name":{"kind":"Name","value":"planRevision"}},{"kind":"Field","name":{"kind":"Name","value":"pendingRunIds"}},{"kind":"Field","name":{"kind":"Name","value":"pinnedTools"}},{"kind":"Field","name":{"kind":"Name","value":"pinnedResources"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"blockId"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"context"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tokenCount"}},{"kind":"Field","name":{"kind":"Name","value":"sections"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"tokenCount"}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"HandoffDetails"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Handoff"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"purpose"}},{"kind":"Field","name":{"kind":"Name","value":"currentRequest"}},{"kind":"Field","name":{"kind":"Name","value":"establishedFacts"}},{"kind":"Field","name":{"kind":"Name","value":"decisions"}},{"kind":"Field","name":{"kind":"Name","value":"openQuestions"}},{"kind":"Field","name":{"kind":"Name","value":"nextActions"}},{"kind":"Field","name":{"kind":"Name","value":"cautions"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ManifestItemRow"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ManifestItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"origin"}},{"kind":"Field","name":{"kind":"Name","value":"score"}},{"kind":"Field","name":{"kind":"Name","value":"relevance"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"fromEventId"}},{"kind":"Field","name":{"kind":"Name","value":"toEventId"}},{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"blockId"}},{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"cid"}},{"kind":"Field","name":{"kind":"Name","value":"tokenCount"}},{"kind":"Field","name":{"kind":"Name","value":"hash"}}]}}]} as unknown as DocumentNode<HandoffInspectionQuery, HandoffInspectionQueryVariables>;
export const SessionLineageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"SessionLineage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"session"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"currentContinuation"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}},{"kind":"Field","name":{"kind":"Name","value":"continuedFrom"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"SuccessorBanner"}}]}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"LineageControl"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SuccessorBanner"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ContinuationEdge"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"predecessor"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"LineageControl"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Session"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"lineage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}}]}},{"kind":"Field","name":{"kind":"Name","value":"lineageTree"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"depth"}},{"kind":"Field","name":{"kind":"Name","value":"session"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edge"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"predecessor"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]}}]} as unknown as DocumentNode<SessionLineageQuery, SessionLineageQueryVariables>;
export const SearchEventsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"SearchEvents"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"query"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"scope"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"SearchScope"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"searchEvents"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"query"},"value":{"kind":"Variable","name":{"kind":"Name","value":"query"}}},{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}}},{"kind":"Argument","name":{"kind":"Name","value":"scope"},"value":{"kind":"Variable","name":{"kind":"Name","value":"scope"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"EventSearchHitRow"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"EventSearchHitRow"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"EventSearchHit"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"score"}},{"kind":"Field","name":{"kind":"Name","value":"snippet"}},{"kind":"Field","name":{"kind":"Name","value":"event"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"session"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}}]}}]}}]}}]} as unknown as DocumentNode<SearchEventsQuery, SearchEventsQueryVariables>;
export const CreateSessionDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateSession"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateSessionInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createSession"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"SessionSummary"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SessionSummary"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Session"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"currentContinuation"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"lineage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]} as unknown as DocumentNode<CreateSessionMutation, CreateSessionMutationVariables>;
export const SessionsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Sessions"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sessions"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"rootsOnly"},"value":{"kind":"BooleanValue","value":true}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"SessionSummary"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SessionSummary"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Session"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"currentContinuation"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"lineage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]} as unknown as DocumentNode<SessionsQuery, SessionsQueryVariables>;
export const CitedRangeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CitedRange"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"fromEventId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"toEventId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"from"},"name":{"kind":"Name","value":"event"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"fromEventId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"session"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}},{"kind":"Field","alias":{"kind":"Name","value":"to"},"name":{"kind":"Name","value":"event"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"toEventId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"session"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]} as unknown as DocumentNode<CitedRangeQuery, CitedRangeQueryVariables>;
export const SessionEventsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"SessionEvents"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"afterSeq"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sessionEvents"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}}},{"kind":"Argument","name":{"kind":"Name","value":"afterSeq"},"value":{"kind":"Variable","name":{"kind":"Name","value":"afterSeq"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TranscriptEvent"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TranscriptEvent"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Event"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"data"}},{"kind":"Field","name":{"kind":"Name","value":"toolCallId"}},{"kind":"Field","name":{"kind":"Name","value":"tokenCount"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"attachments"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cid"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"mediaType"}},{"kind":"Field","name":{"kind":"Name","value":"byteSize"}},{"kind":"Field","name":{"kind":"Name","value":"url"}}]}},{"kind":"Field","name":{"kind":"Name","value":"replayOf"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"session"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}}]}}]}}]}}]} as unknown as DocumentNode<SessionEventsSubscription, SessionEventsSubscriptionVariables>;
export const PostMessageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"PostMessage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"PostMessageInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"postMessage"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PostMessageSuccess"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"event"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TranscriptEvent"}}]}},{"kind":"Field","name":{"kind":"Name","value":"session"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"eventCount"}},{"kind":"Field","name":{"kind":"Name","value":"tokenCount"}},{"kind":"Field","name":{"kind":"Name","value":"continuedFrom"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"OperationError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"OperationErrorNoticeFields"}},{"kind":"Field","name":{"kind":"Name","value":"currentContinuation"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TranscriptEvent"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Event"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"data"}},{"kind":"Field","name":{"kind":"Name","value":"toolCallId"}},{"kind":"Field","name":{"kind":"Name","value":"tokenCount"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"attachments"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cid"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"mediaType"}},{"kind":"Field","name":{"kind":"Name","value":"byteSize"}},{"kind":"Field","name":{"kind":"Name","value":"url"}}]}},{"kind":"Field","name":{"kind":"Name","value":"replayOf"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"session"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"OperationErrorNoticeFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"OperationError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"details"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]} as unknown as DocumentNode<PostMessageMutation, PostMessageMutationVariables>;
export const SessionTranscriptDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"SessionTranscript"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"last"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"before"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"session"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"eventCount"}},{"kind":"Field","name":{"kind":"Name","value":"tokenCount"}},{"kind":"Field","name":{"kind":"Name","value":"events"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"last"},"value":{"kind":"Variable","name":{"kind":"Name","value":"last"}}},{"kind":"Argument","name":{"kind":"Name","value":"before"},"value":{"kind":"Variable","name":{"kind":"Name","value":"before"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TranscriptEvent"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasPreviousPage"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"startCursor"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TranscriptEvent"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Event"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"data"}},{"kind":"Field","name":{"kind":"Name","value":"toolCallId"}},{"kind":"Field","name":{"kind":"Name","value":"tokenCount"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"attachments"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cid"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"mediaType"}},{"kind":"Field","name":{"kind":"Name","value":"byteSize"}},{"kind":"Field","name":{"kind":"Name","value":"url"}}]}},{"kind":"Field","name":{"kind":"Name","value":"replayOf"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"session"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}}]}}]}}]}}]} as unknown as DocumentNode<SessionTranscriptQuery, SessionTranscriptQueryVariables>;