/* eslint-disable */
import * as types from './graphql';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  query Viewer {\n    viewer {\n      id\n      name\n    }\n  }\n": typeof types.ViewerDocument,
    "\n  fragment SessionSummary on Session {\n    id\n    kind\n    status\n    title\n    description\n    createdAt\n    eventCount\n  }\n": typeof types.SessionSummaryFragmentDoc,
    "\n  mutation CreateSession($input: CreateSessionInput!) {\n    createSession(input: $input) {\n      ...SessionSummary\n    }\n  }\n": typeof types.CreateSessionDocument,
    "\n  query Sessions($first: Int!, $after: String) {\n    sessions(first: $first, after: $after) {\n      edges {\n        cursor\n        node {\n          ...SessionSummary\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n      totalCount\n    }\n  }\n": typeof types.SessionsDocument,
    "\n  fragment TranscriptEvent on Event {\n    id\n    seq\n    kind\n    text\n    data\n    toolCallId\n    tokenCount\n    createdAt\n  }\n": typeof types.TranscriptEventFragmentDoc,
    "\n  subscription SessionEvents($sessionId: ID!) {\n    sessionEvents(sessionId: $sessionId) {\n      ...TranscriptEvent\n    }\n  }\n": typeof types.SessionEventsDocument,
    "\n  mutation PostMessage($input: PostMessageInput!) {\n    postMessage(input: $input) {\n      __typename\n      ... on PostMessageSuccess {\n        event {\n          ...TranscriptEvent\n        }\n        session {\n          id\n          status\n          eventCount\n          tokenCount\n        }\n      }\n      ... on OperationError {\n        code\n        message\n        details {\n          path\n          message\n        }\n      }\n    }\n  }\n": typeof types.PostMessageDocument,
    "\n  query SessionTranscript($id: ID!, $last: Int!, $before: String) {\n    session(id: $id) {\n      id\n      kind\n      status\n      title\n      description\n      createdAt\n      eventCount\n      tokenCount\n      events(last: $last, before: $before) {\n        edges {\n          node {\n            ...TranscriptEvent\n          }\n        }\n        pageInfo {\n          hasPreviousPage\n          hasNextPage\n          startCursor\n          endCursor\n        }\n        totalCount\n      }\n    }\n  }\n": typeof types.SessionTranscriptDocument,
};
const documents: Documents = {
    "\n  query Viewer {\n    viewer {\n      id\n      name\n    }\n  }\n": types.ViewerDocument,
    "\n  fragment SessionSummary on Session {\n    id\n    kind\n    status\n    title\n    description\n    createdAt\n    eventCount\n  }\n": types.SessionSummaryFragmentDoc,
    "\n  mutation CreateSession($input: CreateSessionInput!) {\n    createSession(input: $input) {\n      ...SessionSummary\n    }\n  }\n": types.CreateSessionDocument,
    "\n  query Sessions($first: Int!, $after: String) {\n    sessions(first: $first, after: $after) {\n      edges {\n        cursor\n        node {\n          ...SessionSummary\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n      totalCount\n    }\n  }\n": types.SessionsDocument,
    "\n  fragment TranscriptEvent on Event {\n    id\n    seq\n    kind\n    text\n    data\n    toolCallId\n    tokenCount\n    createdAt\n  }\n": types.TranscriptEventFragmentDoc,
    "\n  subscription SessionEvents($sessionId: ID!) {\n    sessionEvents(sessionId: $sessionId) {\n      ...TranscriptEvent\n    }\n  }\n": types.SessionEventsDocument,
    "\n  mutation PostMessage($input: PostMessageInput!) {\n    postMessage(input: $input) {\n      __typename\n      ... on PostMessageSuccess {\n        event {\n          ...TranscriptEvent\n        }\n        session {\n          id\n          status\n          eventCount\n          tokenCount\n        }\n      }\n      ... on OperationError {\n        code\n        message\n        details {\n          path\n          message\n        }\n      }\n    }\n  }\n": types.PostMessageDocument,
    "\n  query SessionTranscript($id: ID!, $last: Int!, $before: String) {\n    session(id: $id) {\n      id\n      kind\n      status\n      title\n      description\n      createdAt\n      eventCount\n      tokenCount\n      events(last: $last, before: $before) {\n        edges {\n          node {\n            ...TranscriptEvent\n          }\n        }\n        pageInfo {\n          hasPreviousPage\n          hasNextPage\n          startCursor\n          endCursor\n        }\n        totalCount\n      }\n    }\n  }\n": types.SessionTranscriptDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Viewer {\n    viewer {\n      id\n      name\n    }\n  }\n"): (typeof documents)["\n  query Viewer {\n    viewer {\n      id\n      name\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment SessionSummary on Session {\n    id\n    kind\n    status\n    title\n    description\n    createdAt\n    eventCount\n  }\n"): (typeof documents)["\n  fragment SessionSummary on Session {\n    id\n    kind\n    status\n    title\n    description\n    createdAt\n    eventCount\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateSession($input: CreateSessionInput!) {\n    createSession(input: $input) {\n      ...SessionSummary\n    }\n  }\n"): (typeof documents)["\n  mutation CreateSession($input: CreateSessionInput!) {\n    createSession(input: $input) {\n      ...SessionSummary\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Sessions($first: Int!, $after: String) {\n    sessions(first: $first, after: $after) {\n      edges {\n        cursor\n        node {\n          ...SessionSummary\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n      totalCount\n    }\n  }\n"): (typeof documents)["\n  query Sessions($first: Int!, $after: String) {\n    sessions(first: $first, after: $after) {\n      edges {\n        cursor\n        node {\n          ...SessionSummary\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n      totalCount\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment TranscriptEvent on Event {\n    id\n    seq\n    kind\n    text\n    data\n    toolCallId\n    tokenCount\n    createdAt\n  }\n"): (typeof documents)["\n  fragment TranscriptEvent on Event {\n    id\n    seq\n    kind\n    text\n    data\n    toolCallId\n    tokenCount\n    createdAt\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription SessionEvents($sessionId: ID!) {\n    sessionEvents(sessionId: $sessionId) {\n      ...TranscriptEvent\n    }\n  }\n"): (typeof documents)["\n  subscription SessionEvents($sessionId: ID!) {\n    sessionEvents(sessionId: $sessionId) {\n      ...TranscriptEvent\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation PostMessage($input: PostMessageInput!) {\n    postMessage(input: $input) {\n      __typename\n      ... on PostMessageSuccess {\n        event {\n          ...TranscriptEvent\n        }\n        session {\n          id\n          status\n          eventCount\n          tokenCount\n        }\n      }\n      ... on OperationError {\n        code\n        message\n        details {\n          path\n          message\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation PostMessage($input: PostMessageInput!) {\n    postMessage(input: $input) {\n      __typename\n      ... on PostMessageSuccess {\n        event {\n          ...TranscriptEvent\n        }\n        session {\n          id\n          status\n          eventCount\n          tokenCount\n        }\n      }\n      ... on OperationError {\n        code\n        message\n        details {\n          path\n          message\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SessionTranscript($id: ID!, $last: Int!, $before: String) {\n    session(id: $id) {\n      id\n      kind\n      status\n      title\n      description\n      createdAt\n      eventCount\n      tokenCount\n      events(last: $last, before: $before) {\n        edges {\n          node {\n            ...TranscriptEvent\n          }\n        }\n        pageInfo {\n          hasPreviousPage\n          hasNextPage\n          startCursor\n          endCursor\n        }\n        totalCount\n      }\n    }\n  }\n"): (typeof documents)["\n  query SessionTranscript($id: ID!, $last: Int!, $before: String) {\n    session(id: $id) {\n      id\n      kind\n      status\n      title\n      description\n      createdAt\n      eventCount\n      tokenCount\n      events(last: $last, before: $before) {\n        edges {\n          node {\n            ...TranscriptEvent\n          }\n        }\n        pageInfo {\n          hasPreviousPage\n          hasNextPage\n          startCursor\n          endCursor\n        }\n        totalCount\n      }\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;