/**
 * The API's own types, as the operations this package ships select them: named views of the types
 * generated from the schema (src/generated/operations.ts), so they cannot drift from it.
 */
import type {
  ApiKeyFieldsFragment,
  ContinueSessionMutation,
  CreateApiKeyMutation,
  EdgeFieldsFragment,
  EventFieldsFragment,
  LineageQuery,
  OperationErrorFieldsFragment,
  PostMessageMutation,
  RunFieldsFragment,
  SearchEventsQuery,
  SearchEventsQueryVariables,
  SessionFieldsFragment,
  SessionsQuery,
  SessionsQueryVariables,
} from './generated/operations.js';

export type {
  Actor,
  ApiKeyScope,
  CreateApiKeyInput,
  ContinuationReason,
  ContinuationSourceInput,
  ContinueSessionInput,
  CreateSessionInput,
  ErrorCode,
  EventKind,
  PostMessageInput,
  RunStatus,
  SearchScope,
  SessionKind,
  SessionStatus,
  SourceKind,
} from './generated/operations.js';

export type Session = SessionFieldsFragment;
export type Event = EventFieldsFragment;
export type ContinuationEdge = EdgeFieldsFragment;
export type Handoff = ContinuationEdge['handoff'];
export type ContextSection = ContinuationEdge['manifest']['context']['sections'][number];
export type Run = RunFieldsFragment;

/** An expected failure: nothing was written. With SESSION_CONTINUED, `currentContinuation` says where the conversation went. */
export type OperationError = OperationErrorFieldsFragment;

export type PostMessageResult = PostMessageMutation['postMessage'];
export type PostMessageSuccess = Extract<PostMessageResult, { __typename: 'PostMessageSuccess' }>;
export type ContinueSessionResult = ContinueSessionMutation['continueSession'];
export type ContinueSessionSuccess = Extract<ContinueSessionResult, { __typename: 'ContinueSessionSuccess' }>;

/** One session of a lineage, origin first; `continuedFrom` is the edge into it. */
export type LineageEntry = NonNullable<LineageQuery['session']>['lineage'][number];

/** `sessionId` is the session the search starts from (required for SESSION and LINEAGE); `scope` is LINEAGE with a sessionId, ACCOUNT without, unless given. */
export type SearchEventsArgs = SearchEventsQueryVariables;
export type EventSearchConnection = SearchEventsQuery['searchEvents'];

/** A page of the account's sessions, newest first: `first` (0 to 100, default 50) after the cursor `after`, optionally only lineage roots (`rootsOnly`) or one `status`. */
export type ListSessionsArgs = SessionsQueryVariables;
export type SessionConnection = SessionsQuery['sessions'];

/** A key of the account, without its secret (shown only when it is created). */
export type ApiKey = ApiKeyFieldsFragment;
export type CreateApiKeyResult = CreateApiKeyMutation['createApiKey'];
export type CreateApiKeySuccess = Extract<CreateApiKeyResult, { __typename: 'CreateApiKeySuccess' }>;
