/** The API's own types, as far as the operations this package ships select them. */

export type SessionKind = 'ROOT' | 'CONTINUATION' | 'FORK' | 'CHILD';
export type SessionStatus = 'ACTIVE' | 'CONTINUED' | 'ARCHIVED';
export type EventKind = 'USER_MESSAGE' | 'ASSISTANT_MESSAGE' | 'TOOL_CALL' | 'TOOL_RESULT' | 'SYSTEM' | 'CONTINUATION';
export type Actor = 'AGENT' | 'USER' | 'SYSTEM';
export type ContinuationReason = 'CONTEXT_PRESSURE' | 'TOPIC_CHANGE' | 'PHASE_CHANGE' | 'USER_REQUEST' | 'OTHER';
export type SourceKind = 'SESSION_EVENTS' | 'SESSION_EVENT' | 'RESOURCE' | 'MEMORY';
export type SearchScope = 'SESSION' | 'LINEAGE' | 'ACCOUNT';
export type ErrorCode =
  | 'CYCLE'
  | 'FORBIDDEN'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'INVALID_INPUT'
  | 'NOT_FOUND'
  | 'PENDING_RUNS_NOT_TRANSFERRED'
  | 'RATE_LIMITED'
  | 'SESSION_CONTINUED'
  | 'SOURCE_NOT_ACCESSIBLE'
  | 'SOURCE_NOT_FOUND'
  | 'TURN_IN_PROGRESS';

export interface Session {
  id: string;
  title: string;
  kind: SessionKind;
  status: SessionStatus;
  eventCount: number;
  createdAt: string;
}

export interface Event {
  id: string;
  seq: number;
  kind: EventKind;
  text: string | null;
  /** Structured payload: tool arguments and results, card data. */
  data: unknown;
  toolCallId: string | null;
  createdAt: string;
  session: { id: string };
}

export interface Handoff {
  purpose: string;
  currentRequest: string;
  establishedFacts: string[];
  decisions: string[];
  openQuestions: string[];
  nextActions: string[];
  cautions: string[];
}

export interface ContextSection {
  kind: string;
  text: string;
  tokenCount: number;
}

export interface ContinuationEdge {
  id: string;
  reason: ContinuationReason;
  actor: Actor;
  createdAt: string;
  predecessor: Pick<Session, 'id' | 'title'>;
  successor: Pick<Session, 'id' | 'title'>;
  handoff: Handoff;
  manifest: { id: string; tokenBudget: number; tokenCost: number; context: { sections: ContextSection[] } };
}

export interface Run {
  id: string;
  status: 'QUEUED' | 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'CANCELLED';
}

/** An expected failure: nothing was written. */
export interface OperationError {
  __typename: 'OperationError';
  code: ErrorCode;
  message: string;
  details: { path: string[]; message: string }[];
  /** With SESSION_CONTINUED: where the conversation went. */
  currentContinuation: Pick<Session, 'id' | 'title'> | null;
}

export interface PostMessageSuccess {
  __typename: 'PostMessageSuccess';
  event: Event;
  session: Session;
  run: Run | null;
}

export interface ContinueSessionSuccess {
  __typename: 'ContinueSessionSuccess';
  edge: ContinuationEdge;
  successor: Session;
  run: Run;
  replayed: boolean;
}

export type PostMessageResult = PostMessageSuccess | OperationError;
export type ContinueSessionResult = ContinueSessionSuccess | OperationError;

export interface CreateSessionInput {
  title: string;
  description?: string | null;
}

export interface PostMessageInput {
  sessionId: string;
  text: string;
  clientMessageId?: string | null;
  branch?: boolean | null;
}

export interface ContinuationSourceInput {
  kind: SourceKind;
  relevance: string;
  sessionId?: string;
  fromEventId?: string;
  toEventId?: string;
  eventId?: string;
  url?: string;
  version?: string;
  blockId?: string;
  path?: string;
  cid?: string;
}

export interface ContinueSessionInput {
  sessionId: string;
  idempotencyKey: string;
  title: string;
  reason: ContinuationReason;
  handoff: Partial<Handoff> & Pick<Handoff, 'purpose' | 'currentRequest'>;
  sources: ContinuationSourceInput[];
  description?: string | null;
  actor?: Actor | null;
  assist?: boolean | null;
  initiatingEventId?: string | null;
  tokenBudget?: number | null;
  transfer?: {
    pendingRuns?: string[];
    pinnedResources?: { url: string; version?: string; blockId?: string }[];
    pinnedTools?: string[];
    plan?: 'CARRY' | 'CLOSE' | 'OMIT';
  } | null;
}

/** One session of a lineage, origin first; `continuedFrom` is the edge into it. */
export interface LineageEntry extends Session {
  continuedFrom: { id: string; reason: ContinuationReason; actor: Actor; createdAt: string } | null;
}

export interface SearchEventsArgs {
  query: string;
  /** The session the search starts from; required for SESSION and LINEAGE. */
  sessionId?: string;
  /** LINEAGE with a sessionId, ACCOUNT without, unless given. */
  scope?: SearchScope;
  first?: number;
  after?: string;
}

export interface EventSearchConnection {
  totalCount: number;
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  edges: { cursor: string; node: { score: number; snippet: string; event: Event } }[];
}
