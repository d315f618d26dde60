import type {
  ContinuationEdge,
  ContinueSessionInput,
  ContinueSessionResult,
  CreateSessionInput,
  Event,
  EventSearchConnection,
  LineageEntry,
  PostMessageInput,
  PostMessageResult,
  SearchEventsArgs,
  Session,
} from './types.js';

/** A GraphQL document with the types of its result and variables. */
export interface TypedDocument<TData, TVariables> {
  readonly query: string;
  /** Never set: carries the types only. */
  readonly __types?: (variables: TVariables) => TData;
}

const typed = <TData, TVariables>(query: string): TypedDocument<TData, TVariables> => ({ query });

const SESSION = 'id title kind status eventCount createdAt';
const EVENT = 'id seq kind text data toolCallId createdAt session { id }';
const EDGE = `id reason actor createdAt predecessor { id title } successor { id title }
  handoff { purpose currentRequest establishedFacts decisions openQuestions nextActions cautions }
  manifest { id tokenBudget tokenCost context { sections { kind text tokenCount } } }`;
const OPERATION_ERROR = '... on OperationError { __typename code message details { path message } currentContinuation { id title } }';

export const CREATE_SESSION = typed<{ createSession: Session }, { input: CreateSessionInput }>(
  `mutation CreateSession($input: CreateSessionInput!) { createSession(input: $input) { ${SESSION} } }`,
);

export const POST_MESSAGE = typed<{ postMessage: PostMessageResult }, { input: PostMessageInput }>(
  `mutation PostMessage($input: PostMessageInput!) {
    postMessage(input: $input) {
      __typename
      ... on PostMessageSuccess { __typename event { ${EVENT} } session { ${SESSION} } run { id status } }
      ${OPERATION_ERROR}
    }
  }`,
);

export const CONTINUE_SESSION = typed<{ continueSession: ContinueSessionResult }, { input: ContinueSessionInput }>(
  `mutation ContinueSession($input: ContinueSessionInput!) {
    continueSession(input: $input) {
      __typename
      ... on ContinueSessionSuccess { __typename replayed edge { ${EDGE} } successor { ${SESSION} } run { id status } }
      ${OPERATION_ERROR}
    }
  }`,
);

export const LINEAGE = typed<{ session: { lineage: LineageEntry[] } | null }, { sessionId: string }>(
  `query Lineage($sessionId: ID!) {
    session(id: $sessionId) { lineage { ${SESSION} continuedFrom { id reason actor createdAt } } }
  }`,
);

export const SEARCH_EVENTS = typed<{ searchEvents: EventSearchConnection }, SearchEventsArgs>(
  `query SearchEvents($query: String!, $sessionId: ID, $scope: SearchScope, $first: Int, $after: String) {
    searchEvents(query: $query, sessionId: $sessionId, scope: $scope, first: $first, after: $after) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges { cursor node { score snippet event { ${EVENT} } } }
    }
  }`,
);

export const CONTINUATION_EDGE = typed<{ continuationEdge: ContinuationEdge | null }, { id: string }>(
  `query ContinuationEdge($id: ID!) { continuationEdge(id: $id) { ${EDGE} } }`,
);

export const SESSION_EVENTS = typed<{ sessionEvents: Event }, { sessionId: string; afterSeq: number }>(
  `subscription SessionEvents($sessionId: ID!, $afterSeq: Int) { sessionEvents(sessionId: $sessionId, afterSeq: $afterSeq) { ${EVENT} } }`,
);
