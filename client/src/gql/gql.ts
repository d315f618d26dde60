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
    "\n  fragment OperationErrorNoticeFields on OperationError {\n    code\n    message\n    details {\n      path\n      message\n    }\n  }\n": typeof types.OperationErrorNoticeFieldsFragmentDoc,
    "\n  fragment SessionState on Session {\n    id\n    status\n    currentContinuation {\n      id\n    }\n  }\n": typeof types.SessionStateFragmentDoc,
    "\n  fragment RunState on Run {\n    id\n    kind\n    status\n    error\n  }\n": typeof types.RunStateFragmentDoc,
    "\n  query SessionAgentState($id: ID!) {\n    session(id: $id) {\n      id\n      continuationSuggested\n      contextUsage {\n        tokens\n        windowTokens\n        threshold\n        share\n      }\n      runs(last: 10) {\n        ...RunState\n      }\n    }\n  }\n": typeof types.SessionAgentStateDocument,
    "\n  subscription RunUpdated($sessionId: ID!) {\n    runUpdated(sessionId: $sessionId) {\n      ...RunState\n    }\n  }\n": typeof types.RunUpdatedDocument,
    "\n  mutation CancelRun($runId: ID!) {\n    cancelRun(runId: $runId) {\n      ...RunState\n    }\n  }\n": typeof types.CancelRunDocument,
    "\n  mutation RetryRun($runId: ID!) {\n    retryRun(runId: $runId) {\n      ...RunState\n    }\n  }\n": typeof types.RetryRunDocument,
    "\n  subscription RunOutput($runId: ID!) {\n    runOutput(runId: $runId) {\n      runId\n      offset\n      text\n    }\n  }\n": typeof types.RunOutputDocument,
    "\n  query AttachmentByCid($cid: String!) {\n    attachment(cid: $cid) {\n      ...AttachmentFields\n    }\n  }\n": typeof types.AttachmentByCidDocument,
    "\n  fragment AttachmentFields on Attachment {\n    cid\n    name\n    mediaType\n    byteSize\n    url\n  }\n": typeof types.AttachmentFieldsFragmentDoc,
    "\n  fragment SuccessorBanner on ContinuationEdge {\n    id\n    reason\n    createdAt\n    predecessor {\n      id\n      title\n    }\n  }\n": typeof types.SuccessorBannerFragmentDoc,
    "\n  subscription SessionContinued($sessionId: ID!) {\n    sessionContinued(sessionId: $sessionId) {\n      edge {\n        id\n      }\n      predecessor {\n        id\n        status\n        currentContinuation {\n          id\n          title\n          status\n        }\n        ...LineageControl\n      }\n      successor {\n        id\n        title\n      }\n    }\n  }\n": typeof types.SessionContinuedDocument,
    "\n  mutation ContinueSession($input: ContinueSessionInput!) {\n    continueSession(input: $input) {\n      __typename\n      ... on ContinueSessionSuccess {\n        edge {\n          id\n          predecessor {\n            id\n            status\n            currentContinuation {\n              id\n              title\n              status\n            }\n          }\n        }\n        successor {\n          id\n          title\n          origin {\n            id\n            currentContinuation {\n              id\n              title\n              status\n              lineage {\n                id\n              }\n            }\n          }\n        }\n      }\n      ... on OperationError {\n        ...OperationErrorNoticeFields\n      }\n    }\n  }\n": typeof types.ContinueSessionDocument,
    "\n  query TranscriptBounds($id: ID!, $lastSeq: Int!) {\n    session(id: $id) {\n      id\n      opening: events(fromSeq: 1, toSeq: 1) {\n        edges {\n          node {\n            id\n          }\n        }\n      }\n      latest: events(fromSeq: $lastSeq, toSeq: $lastSeq) {\n        edges {\n          node {\n            id\n          }\n        }\n      }\n    }\n  }\n": typeof types.TranscriptBoundsDocument,
    "\n  query PreviewProjection($input: ContinueSessionInput!) {\n    previewProjection(input: $input) {\n      __typename\n      ... on ProjectionPreview {\n        tokenBudget\n        tokenCost\n        context {\n          sections {\n            kind\n            tokenCount\n          }\n        }\n        items {\n          ...ManifestItemRow\n        }\n      }\n      ... on OperationError {\n        ...OperationErrorNoticeFields\n      }\n    }\n  }\n": typeof types.PreviewProjectionDocument,
    "\n  fragment HandoffDetails on Handoff {\n    purpose\n    currentRequest\n    establishedFacts\n    decisions\n    openQuestions\n    nextActions\n    cautions\n  }\n": typeof types.HandoffDetailsFragmentDoc,
    "\n  fragment ManifestItemRow on ManifestItem {\n    kind\n    status\n    origin\n    score\n    relevance\n    sessionId\n    fromEventId\n    toEventId\n    eventId\n    url\n    version\n    blockId\n    path\n    cid\n    tokenCount\n    hash\n  }\n": typeof types.ManifestItemRowFragmentDoc,
    "\n  query HandoffInspection($edgeId: ID!) {\n    continuationEdge(id: $edgeId) {\n      id\n      reason\n      actor\n      createdAt\n      predecessor {\n        id\n        title\n      }\n      successor {\n        id\n        title\n      }\n      handoff {\n        ...HandoffDetails\n      }\n      manifest {\n        id\n        hash\n        compilerVersion\n        modelVersion\n        createdAt\n        lineageBlock\n        tokenBudget\n        tokenCost\n        items {\n          ...ManifestItemRow\n        }\n        transferredState {\n          plan\n          planRevision\n          pendingRunIds\n          pinnedTools\n          pinnedResources {\n            url\n            version\n            blockId\n          }\n        }\n        context {\n          tokenCount\n          sections {\n            kind\n            text\n            tokenCount\n          }\n        }\n      }\n    }\n  }\n": typeof types.HandoffInspectionDocument,
    "\n  fragment LineageControl on Session {\n    id\n    lineage {\n      id\n      title\n    }\n    lineageTree {\n      depth\n      session {\n        id\n        title\n      }\n      edge {\n        id\n        predecessor {\n          id\n        }\n      }\n    }\n  }\n": typeof types.LineageControlFragmentDoc,
    "\n  query SessionLineage($id: ID!) {\n    session(id: $id) {\n      id\n      currentContinuation {\n        id\n        title\n        status\n      }\n      continuedFrom {\n        ...SuccessorBanner\n      }\n      ...LineageControl\n    }\n  }\n": typeof types.SessionLineageDocument,
    "\n  fragment EventSearchHitRow on EventSearchHit {\n    score\n    snippet\n    event {\n      id\n      seq\n      kind\n      createdAt\n      session {\n        id\n        title\n      }\n    }\n  }\n": typeof types.EventSearchHitRowFragmentDoc,
    "\n  query SearchEvents($query: String!, $sessionId: ID, $scope: SearchScope!, $first: Int!, $after: String) {\n    searchEvents(query: $query, sessionId: $sessionId, scope: $scope, first: $first, after: $after) {\n      edges {\n        cursor\n        node {\n          ...EventSearchHitRow\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n      totalCount\n    }\n  }\n": typeof types.SearchEventsDocument,
    "\n  fragment SessionSummary on Session {\n    id\n    kind\n    status\n    title\n    description\n    createdAt\n    currentContinuation {\n      id\n      title\n      status\n      lineage {\n        id\n      }\n    }\n  }\n": typeof types.SessionSummaryFragmentDoc,
    "\n  mutation CreateSession($input: CreateSessionInput!) {\n    createSession(input: $input) {\n      ...SessionSummary\n    }\n  }\n": typeof types.CreateSessionDocument,
    "\n  query Sessions($first: Int!, $after: String) {\n    sessions(first: $first, after: $after, rootsOnly: true) {\n      edges {\n        cursor\n        node {\n          ...SessionSummary\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n      totalCount\n    }\n  }\n": typeof types.SessionsDocument,
    "\n  fragment TranscriptEvent on Event {\n    id\n    seq\n    kind\n    text\n    data\n    toolCallId\n    tokenCount\n    createdAt\n    attachments {\n      cid\n      name\n      mediaType\n      byteSize\n      url\n    }\n    replayOf {\n      id\n      session {\n        id\n        title\n      }\n    }\n  }\n": typeof types.TranscriptEventFragmentDoc,
    "\n  query CitedRange($fromEventId: ID!, $toEventId: ID!) {\n    from: event(id: $fromEventId) {\n      id\n      seq\n      session {\n        id\n      }\n    }\n    to: event(id: $toEventId) {\n      id\n      seq\n      session {\n        id\n      }\n    }\n  }\n": typeof types.CitedRangeDocument,
    "\n  subscription SessionEvents($sessionId: ID!, $afterSeq: Int) {\n    sessionEvents(sessionId: $sessionId, afterSeq: $afterSeq) {\n      ...TranscriptEvent\n    }\n  }\n": typeof types.SessionEventsDocument,
    "\n  mutation PostMessage($input: PostMessageInput!) {\n    postMessage(input: $input) {\n      __typename\n      ... on PostMessageSuccess {\n        event {\n          ...TranscriptEvent\n        }\n        session {\n          id\n          title\n          status\n          eventCount\n          tokenCount\n          continuedFrom {\n            id\n          }\n        }\n      }\n      ... on OperationError {\n        ...OperationErrorNoticeFields\n        currentContinuation {\n          id\n          title\n        }\n      }\n    }\n  }\n": typeof types.PostMessageDocument,
    "\n  query SessionTranscript($id: ID!, $last: Int!, $before: String) {\n    session(id: $id) {\n      id\n      kind\n      status\n      title\n      description\n      createdAt\n      eventCount\n      tokenCount\n      events(last: $last, before: $before) {\n        edges {\n          node {\n            ...TranscriptEvent\n          }\n        }\n        pageInfo {\n          hasPreviousPage\n          hasNextPage\n          startCursor\n          endCursor\n        }\n        totalCount\n      }\n    }\n  }\n": typeof types.SessionTranscriptDocument,
};
const documents: Documents = {
    "\n  query Viewer {\n    viewer {\n      id\n      name\n    }\n  }\n": types.ViewerDocument,
    "\n  fragment OperationErrorNoticeFields on OperationError {\n    code\n    message\n    details {\n      path\n      message\n    }\n  }\n": types.OperationErrorNoticeFieldsFragmentDoc,
    "\n  fragment SessionState on Session {\n    id\n    status\n    currentContinuation {\n      id\n    }\n  }\n": types.SessionStateFragmentDoc,
    "\n  fragment RunState on Run {\n    id\n    kind\n    status\n    error\n  }\n": types.RunStateFragmentDoc,
    "\n  query SessionAgentState($id: ID!) {\n    session(id: $id) {\n      id\n      continuationSuggested\n      contextUsage {\n        tokens\n        windowTokens\n        threshold\n        share\n      }\n      runs(last: 10) {\n        ...RunState\n      }\n    }\n  }\n": types.SessionAgentStateDocument,
    "\n  subscription RunUpdated($sessionId: ID!) {\n    runUpdated(sessionId: $sessionId) {\n      ...RunState\n    }\n  }\n": types.RunUpdatedDocument,
    "\n  mutation CancelRun($runId: ID!) {\n    cancelRun(runId: $runId) {\n      ...RunState\n    }\n  }\n": types.CancelRunDocument,
    "\n  mutation RetryRun($runId: ID!) {\n    retryRun(runId: $runId) {\n      ...RunState\n    }\n  }\n": types.RetryRunDocument,
    "\n  subscription RunOutput($runId: ID!) {\n    runOutput(runId: $runId) {\n      runId\n      offset\n      text\n    }\n  }\n": types.RunOutputDocument,
    "\n  query AttachmentByCid($cid: String!) {\n    attachment(cid: $cid) {\n      ...AttachmentFields\n    }\n  }\n": types.AttachmentByCidDocument,
    "\n  fragment AttachmentFields on Attachment {\n    cid\n    name\n    mediaType\n    byteSize\n    url\n  }\n": types.AttachmentFieldsFragmentDoc,
    "\n  fragment SuccessorBanner on ContinuationEdge {\n    id\n    reason\n    createdAt\n    predecessor {\n      id\n      title\n    }\n  }\n": types.SuccessorBannerFragmentDoc,
    "\n  subscription SessionContinued($sessionId: ID!) {\n    sessionContinued(sessionId: $sessionId) {\n      edge {\n        id\n      }\n      predecessor {\n        id\n        status\n        currentContinuation {\n          id\n          title\n          status\n        }\n        ...LineageControl\n      }\n      successor {\n        id\n        title\n      }\n    }\n  }\n": types.SessionContinuedDocument,
    "\n  mutation ContinueSession($input: ContinueSessionInput!) {\n    continueSession(input: $input) {\n      __typename\n      ... on ContinueSessionSuccess {\n        edge {\n          id\n          predecessor {\n            id\n            status\n            currentContinuation {\n              id\n              title\n              status\n            }\n          }\n        }\n        successor {\n          id\n          title\n          origin {\n            id\n            currentContinuation {\n              id\n              title\n              status\n              lineage {\n                id\n              }\n            }\n          }\n        }\n      }\n      ... on OperationError {\n        ...OperationErrorNoticeFields\n      }\n    }\n  }\n": types.ContinueSessionDocument,
    "\n  query TranscriptBounds($id: ID!, $lastSeq: Int!) {\n    session(id: $id) {\n      id\n      opening: events(fromSeq: 1, toSeq: 1) {\n        edges {\n          node {\n            id\n          }\n        }\n      }\n      latest: events(fromSeq: $lastSeq, toSeq: $lastSeq) {\n        edges {\n          node {\n            id\n          }\n        }\n      }\n    }\n  }\n": types.TranscriptBoundsDocument,
    "\n  query PreviewProjection($input: ContinueSessionInput!) {\n    previewProjection(input: $input) {\n      __typename\n      ... on ProjectionPreview {\n        tokenBudget\n        tokenCost\n        context {\n          sections {\n            kind\n            tokenCount\n          }\n        }\n        items {\n          ...ManifestItemRow\n        }\n      }\n      ... on OperationError {\n        ...OperationErrorNoticeFields\n      }\n    }\n  }\n": types.PreviewProjectionDocument,
    "\n  fragment HandoffDetails on Handoff {\n    purpose\n    currentRequest\n    establishedFacts\n    decisions\n    openQuestions\n    nextActions\n    cautions\n  }\n": types.HandoffDetailsFragmentDoc,
    "\n  fragment ManifestItemRow on ManifestItem {\n    kind\n    status\n    origin\n    score\n    relevance\n    sessionId\n    fromEventId\n    toEventId\n    eventId\n    url\n    version\n    blockId\n    path\n    cid\n    tokenCount\n    hash\n  }\n": types.ManifestItemRowFragmentDoc,
    "\n  query HandoffInspection($edgeId: ID!) {\n    continuationEdge(id: $edgeId) {\n      id\n      reason\n      actor\n      createdAt\n      predecessor {\n        id\n        title\n      }\n      successor {\n        id\n        title\n      }\n      handoff {\n        ...HandoffDetails\n      }\n      manifest {\n        id\n        hash\n        compilerVersion\n        modelVersion\n        createdAt\n        lineageBlock\n        tokenBudget\n        tokenCost\n        items {\n          ...ManifestItemRow\n        }\n        transferredState {\n          plan\n          planRevision\n          pendingRunIds\n          pinnedTools\n          pinnedResources {\n            url\n            version\n            blockId\n          }\n        }\n        context {\n          tokenCount\n          sections {\n            kind\n            text\n            tokenCount\n          }\n        }\n      }\n    }\n  }\n": types.HandoffInspectionDocument,
    "\n  fragment LineageControl on Session {\n    id\n    lineage {\n      id\n      title\n    }\n    lineageTree {\n      depth\n      session {\n        id\n        title\n      }\n      edge {\n        id\n        predecessor {\n          id\n        }\n      }\n    }\n  }\n": types.LineageControlFragmentDoc,
    "\n  query SessionLineage($id: ID!) {\n    session(id: $id) {\n      id\n      currentContinuation {\n        id\n        title\n        status\n      }\n      continuedFrom {\n        ...SuccessorBanner\n      }\n      ...LineageControl\n    }\n  }\n": types.SessionLineageDocument,
    "\n  fragment EventSearchHitRow on EventSearchHit {\n    score\n    snippet\n    event {\n      id\n      seq\n      kind\n      createdAt\n      session {\n        id\n        title\n      }\n    }\n  }\n": types.EventSearchHitRowFragmentDoc,
    "\n  query SearchEvents($query: String!, $sessionId: ID, $scope: SearchScope!, $first: Int!, $after: String) {\n    searchEvents(query: $query, sessionId: $sessionId, scope: $scope, first: $first, after: $after) {\n      edges {\n        cursor\n        node {\n          ...EventSearchHitRow\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n      totalCount\n    }\n  }\n": types.SearchEventsDocument,
    "\n  fragment SessionSummary on Session {\n    id\n    kind\n    status\n    title\n    description\n    createdAt\n    currentContinuation {\n      id\n      title\n      status\n      lineage {\n        id\n      }\n    }\n  }\n": types.SessionSummaryFragmentDoc,
    "\n  mutation CreateSession($input: CreateSessionInput!) {\n    createSession(input: $input) {\n      ...SessionSummary\n    }\n  }\n": types.CreateSessionDocument,
    "\n  query Sessions($first: Int!, $after: String) {\n    sessions(first: $first, after: $after, rootsOnly: true) {\n      edges {\n        cursor\n        node {\n          ...SessionSummary\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n      totalCount\n    }\n  }\n": types.SessionsDocument,
    "\n  fragment TranscriptEvent on Event {\n    id\n    seq\n    kind\n    text\n    data\n    toolCallId\n    tokenCount\n    createdAt\n    attachments {\n      cid\n      name\n      mediaType\n      byteSize\n      url\n    }\n    replayOf {\n      id\n      session {\n        id\n        title\n      }\n    }\n  }\n": types.TranscriptEventFragmentDoc,
    "\n  query CitedRange($fromEventId: ID!, $toEventId: ID!) {\n    from: event(id: $fromEventId) {\n      id\n      seq\n      session {\n        id\n      }\n    }\n    to: event(id: $toEventId) {\n      id\n      seq\n      session {\n        id\n      }\n    }\n  }\n": types.CitedRangeDocument,
    "\n  subscription SessionEvents($sessionId: ID!, $afterSeq: Int) {\n    sessionEvents(sessionId: $sessionId, afterSeq: $afterSeq) {\n      ...TranscriptEvent\n    }\n  }\n": types.SessionEventsDocument,
    "\n  mutation PostMessage($input: PostMessageInput!) {\n    postMessage(input: $input) {\n      __typename\n      ... on PostMessageSuccess {\n        event {\n          ...TranscriptEvent\n        }\n        session {\n          id\n          title\n          status\n          eventCount\n          tokenCount\n          continuedFrom {\n            id\n          }\n        }\n      }\n      ... on OperationError {\n        ...OperationErrorNoticeFields\n        currentContinuation {\n          id\n          title\n        }\n      }\n    }\n  }\n": types.PostMessageDocument,
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
export function graphql(source: "\n  fragment OperationErrorNoticeFields on OperationError {\n    code\n    message\n    details {\n      path\n      message\n    }\n  }\n"): (typeof documents)["\n  fragment OperationErrorNoticeFields on OperationError {\n    code\n    message\n    details {\n      path\n      message\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment SessionState on Session {\n    id\n    status\n    currentContinuation {\n      id\n    }\n  }\n"): (typeof documents)["\n  fragment SessionState on Session {\n    id\n    status\n    currentContinuation {\n      id\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment RunState on Run {\n    id\n    kind\n    status\n    error\n  }\n"): (typeof documents)["\n  fragment RunState on Run {\n    id\n    kind\n    status\n    error\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SessionAgentState($id: ID!) {\n    session(id: $id) {\n      id\n      continuationSuggested\n      contextUsage {\n        tokens\n        windowTokens\n        threshold\n        share\n      }\n      runs(last: 10) {\n        ...RunState\n      }\n    }\n  }\n"): (typeof documents)["\n  query SessionAgentState($id: ID!) {\n    session(id: $id) {\n      id\n      continuationSuggested\n      contextUsage {\n        tokens\n        windowTokens\n        threshold\n        share\n      }\n      runs(last: 10) {\n        ...RunState\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription RunUpdated($sessionId: ID!) {\n    runUpdated(sessionId: $sessionId) {\n      ...RunState\n    }\n  }\n"): (typeof documents)["\n  subscription RunUpdated($sessionId: ID!) {\n    runUpdated(sessionId: $sessionId) {\n      ...RunState\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CancelRun($runId: ID!) {\n    cancelRun(runId: $runId) {\n      ...RunState\n    }\n  }\n"): (typeof documents)["\n  mutation CancelRun($runId: ID!) {\n    cancelRun(runId: $runId) {\n      ...RunState\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RetryRun($runId: ID!) {\n    retryRun(runId: $runId) {\n      ...RunState\n    }\n  }\n"): (typeof documents)["\n  mutation RetryRun($runId: ID!) {\n    retryRun(runId: $runId) {\n      ...RunState\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription RunOutput($runId: ID!) {\n    runOutput(runId: $runId) {\n      runId\n      offset\n      text\n    }\n  }\n"): (typeof documents)["\n  subscription RunOutput($runId: ID!) {\n    runOutput(runId: $runId) {\n      runId\n      offset\n      text\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AttachmentByCid($cid: String!) {\n    attachment(cid: $cid) {\n      ...AttachmentFields\n    }\n  }\n"): (typeof documents)["\n  query AttachmentByCid($cid: String!) {\n    attachment(cid: $cid) {\n      ...AttachmentFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment AttachmentFields on Attachment {\n    cid\n    name\n    mediaType\n    byteSize\n    url\n  }\n"): (typeof documents)["\n  fragment AttachmentFields on Attachment {\n    cid\n    name\n    mediaType\n    byteSize\n    url\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment SuccessorBanner on ContinuationEdge {\n    id\n    reason\n    createdAt\n    predecessor {\n      id\n      title\n    }\n  }\n"): (typeof documents)["\n  fragment SuccessorBanner on ContinuationEdge {\n    id\n    reason\n    createdAt\n    predecessor {\n      id\n      title\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription SessionContinued($sessionId: ID!) {\n    sessionContinued(sessionId: $sessionId) {\n      edge {\n        id\n      }\n      predecessor {\n        id\n        status\n        currentContinuation {\n          id\n          title\n          status\n        }\n        ...LineageControl\n      }\n      successor {\n        id\n        title\n      }\n    }\n  }\n"): (typeof documents)["\n  subscription SessionContinued($sessionId: ID!) {\n    sessionContinued(sessionId: $sessionId) {\n      edge {\n        id\n      }\n      predecessor {\n        id\n        status\n        currentContinuation {\n          id\n          title\n          status\n        }\n        ...LineageControl\n      }\n      successor {\n        id\n        title\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ContinueSession($input: ContinueSessionInput!) {\n    continueSession(input: $input) {\n      __typename\n      ... on ContinueSessionSuccess {\n        edge {\n          id\n          predecessor {\n            id\n            status\n            currentContinuation {\n              id\n              title\n              status\n            }\n          }\n        }\n        successor {\n          id\n          title\n          origin {\n            id\n            currentContinuation {\n              id\n              title\n              status\n              lineage {\n                id\n              }\n            }\n          }\n        }\n      }\n      ... on OperationError {\n        ...OperationErrorNoticeFields\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation ContinueSession($input: ContinueSessionInput!) {\n    continueSession(input: $input) {\n      __typename\n      ... on ContinueSessionSuccess {\n        edge {\n          id\n          predecessor {\n            id\n            status\n            currentContinuation {\n              id\n              title\n              status\n            }\n          }\n        }\n        successor {\n          id\n          title\n          origin {\n            id\n            currentContinuation {\n              id\n              title\n              status\n              lineage {\n                id\n              }\n            }\n          }\n        }\n      }\n      ... on OperationError {\n        ...OperationErrorNoticeFields\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query TranscriptBounds($id: ID!, $lastSeq: Int!) {\n    session(id: $id) {\n      id\n      opening: events(fromSeq: 1, toSeq: 1) {\n        edges {\n          node {\n            id\n          }\n        }\n      }\n      latest: events(fromSeq: $lastSeq, toSeq: $lastSeq) {\n        edges {\n          node {\n            id\n          }\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query TranscriptBounds($id: ID!, $lastSeq: Int!) {\n    session(id: $id) {\n      id\n      opening: events(fromSeq: 1, toSeq: 1) {\n        edges {\n          node {\n            id\n          }\n        }\n      }\n      latest: events(fromSeq: $lastSeq, toSeq: $lastSeq) {\n        edges {\n          node {\n            id\n          }\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query PreviewProjection($input: ContinueSessionInput!) {\n    previewProjection(input: $input) {\n      __typename\n      ... on ProjectionPreview {\n        tokenBudget\n        tokenCost\n        context {\n          sections {\n            kind\n            tokenCount\n          }\n        }\n        items {\n          ...ManifestItemRow\n        }\n      }\n      ... on OperationError {\n        ...OperationErrorNoticeFields\n      }\n    }\n  }\n"): (typeof documents)["\n  query PreviewProjection($input: ContinueSessionInput!) {\n    previewProjection(input: $input) {\n      __typename\n      ... on ProjectionPreview {\n        tokenBudget\n        tokenCost\n        context {\n          sections {\n            kind\n            tokenCount\n          }\n        }\n        items {\n          ...ManifestItemRow\n        }\n      }\n      ... on OperationError {\n        ...OperationErrorNoticeFields\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment HandoffDetails on Handoff {\n    purpose\n    currentRequest\n    establishedFacts\n    decisions\n    openQuestions\n    nextActions\n    cautions\n  }\n"): (typeof documents)["\n  fragment HandoffDetails on Handoff {\n    purpose\n    currentRequest\n    establishedFacts\n    decisions\n    openQuestions\n    nextActions\n    cautions\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ManifestItemRow on ManifestItem {\n    kind\n    status\n    origin\n    score\n    relevance\n    sessionId\n    fromEventId\n    toEventId\n    eventId\n    url\n    version\n    blockId\n    path\n    cid\n    tokenCount\n    hash\n  }\n"): (typeof documents)["\n  fragment ManifestItemRow on ManifestItem {\n    kind\n    status\n    origin\n    score\n    relevance\n    sessionId\n    fromEventId\n    toEventId\n    eventId\n    url\n    version\n    blockId\n    path\n    cid\n    tokenCount\n    hash\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query HandoffInspection($edgeId: ID!) {\n    continuationEdge(id: $edgeId) {\n      id\n      reason\n      actor\n      createdAt\n      predecessor {\n        id\n        title\n      }\n      successor {\n        id\n        title\n      }\n      handoff {\n        ...HandoffDetails\n      }\n      manifest {\n        id\n        hash\n        compilerVersion\n        modelVersion\n        createdAt\n        lineageBlock\n        tokenBudget\n        tokenCost\n        items {\n          ...ManifestItemRow\n        }\n        transferredState {\n          plan\n          planRevision\n          pendingRunIds\n          pinnedTools\n          pinnedResources {\n            url\n            version\n            blockId\n          }\n        }\n        context {\n          tokenCount\n          sections {\n            kind\n            text\n            tokenCount\n          }\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query HandoffInspection($edgeId: ID!) {\n    continuationEdge(id: $edgeId) {\n      id\n      reason\n      actor\n      createdAt\n      predecessor {\n        id\n        title\n      }\n      successor {\n        id\n        title\n      }\n      handoff {\n        ...HandoffDetails\n      }\n      manifest {\n        id\n        hash\n        compilerVersion\n        modelVersion\n        createdAt\n        lineageBlock\n        tokenBudget\n        tokenCost\n        items {\n          ...ManifestItemRow\n        }\n        transferredState {\n          plan\n          planRevision\n          pendingRunIds\n          pinnedTools\n          pinnedResources {\n            url\n            version\n            blockId\n          }\n        }\n        context {\n          tokenCount\n          sections {\n            kind\n            text\n            tokenCount\n          }\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment LineageControl on Session {\n    id\n    lineage {\n      id\n      title\n    }\n    lineageTree {\n      depth\n      session {\n        id\n        title\n      }\n      edge {\n        id\n        predecessor {\n          id\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  fragment LineageControl on Session {\n    id\n    lineage {\n      id\n      title\n    }\n    lineageTree {\n      depth\n      session {\n        id\n        title\n      }\n      edge {\n        id\n        predecessor {\n          id\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SessionLineage($id: ID!) {\n    session(id: $id) {\n      id\n      currentContinuation {\n        id\n        title\n        status\n      }\n      continuedFrom {\n        ...SuccessorBanner\n      }\n      ...LineageControl\n    }\n  }\n"): (typeof documents)["\n  query SessionLineage($id: ID!) {\n    session(id: $id) {\n      id\n      currentContinuation {\n        id\n        title\n        status\n      }\n      continuedFrom {\n        ...SuccessorBanner\n      }\n      ...LineageControl\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment EventSearchHitRow on EventSearchHit {\n    score\n    snippet\n    event {\n      id\n      seq\n      kind\n      createdAt\n      session {\n        id\n        title\n      }\n    }\n  }\n"): (typeof documents)["\n  fragment EventSearchHitRow on EventSearchHit {\n    score\n    snippet\n    event {\n      id\n      seq\n      kind\n      createdAt\n      session {\n        id\n        title\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SearchEvents($query: String!, $sessionId: ID, $scope: SearchScope!, $first: Int!, $after: String) {\n    searchEvents(query: $query, sessionId: $sessionId, scope: $scope, first: $first, after: $after) {\n      edges {\n        cursor\n        node {\n          ...EventSearchHitRow\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n      totalCount\n    }\n  }\n"): (typeof documents)["\n  query SearchEvents($query: String!, $sessionId: ID, $scope: SearchScope!, $first: Int!, $after: String) {\n    searchEvents(query: $query, sessionId: $sessionId, scope: $scope, first: $first, after: $after) {\n      edges {\n        cursor\n        node {\n          ...EventSearchHitRow\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n      totalCount\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment SessionSummary on Session {\n    id\n    kind\n    status\n    title\n    description\n    createdAt\n    currentContinuation {\n      id\n      title\n      status\n      lineage {\n        id\n      }\n    }\n  }\n"): (typeof documents)["\n  fragment SessionSummary on Session {\n    id\n    kind\n    status\n    title\n    description\n    createdAt\n    currentContinuation {\n      id\n      title\n      status\n      lineage {\n        id\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateSession($input: CreateSessionInput!) {\n    createSession(input: $input) {\n      ...SessionSummary\n    }\n  }\n"): (typeof documents)["\n  mutation CreateSession($input: CreateSessionInput!) {\n    createSession(input: $input) {\n      ...SessionSummary\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Sessions($first: Int!, $after: String) {\n    sessions(first: $first, after: $after, rootsOnly: true) {\n      edges {\n        cursor\n        node {\n          ...SessionSummary\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n      totalCount\n    }\n  }\n"): (typeof documents)["\n  query Sessions($first: Int!, $after: String) {\n    sessions(first: $first, after: $after, rootsOnly: true) {\n      edges {\n        cursor\n        node {\n          ...SessionSummary\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n      totalCount\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment TranscriptEvent on Event {\n    id\n    seq\n    kind\n    text\n    data\n    toolCallId\n    tokenCount\n    createdAt\n    attachments {\n      cid\n      name\n      mediaType\n      byteSize\n      url\n    }\n    replayOf {\n      id\n      session {\n        id\n        title\n      }\n    }\n  }\n"): (typeof documents)["\n  fragment TranscriptEvent on Event {\n    id\n    seq\n    kind\n    text\n    data\n    toolCallId\n    tokenCount\n    createdAt\n    attachments {\n      cid\n      name\n      mediaType\n      byteSize\n      url\n    }\n    replayOf {\n      id\n      session {\n        id\n        title\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CitedRange($fromEventId: ID!, $toEventId: ID!) {\n    from: event(id: $fromEventId) {\n      id\n      seq\n      session {\n        id\n      }\n    }\n    to: event(id: $toEventId) {\n      id\n      seq\n      session {\n        id\n      }\n    }\n  }\n"): (typeof documents)["\n  query CitedRange($fromEventId: ID!, $toEventId: ID!) {\n    from: event(id: $fromEventId) {\n      id\n      seq\n      session {\n        id\n      }\n    }\n    to: event(id: $toEventId) {\n      id\n      seq\n      session {\n        id\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription SessionEvents($sessionId: ID!, $afterSeq: Int) {\n    sessionEvents(sessionId: $sessionId, afterSeq: $afterSeq) {\n      ...TranscriptEvent\n    }\n  }\n"): (typeof documents)["\n  subscription SessionEvents($sessionId: ID!, $afterSeq: Int) {\n    sessionEvents(sessionId: $sessionId, afterSeq: $afterSeq) {\n      ...TranscriptEvent\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation PostMessage($input: PostMessageInput!) {\n    postMessage(input: $input) {\n      __typename\n      ... on PostMessageSuccess {\n        event {\n          ...TranscriptEvent\n        }\n        session {\n          id\n          title\n          status\n          eventCount\n          tokenCount\n          continuedFrom {\n            id\n          }\n        }\n      }\n      ... on OperationError {\n        ...OperationErrorNoticeFields\n        currentContinuation {\n          id\n          title\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation PostMessage($input: PostMessageInput!) {\n    postMessage(input: $input) {\n      __typename\n      ... on PostMessageSuccess {\n        event {\n          ...TranscriptEvent\n        }\n        session {\n          id\n          title\n          status\n          eventCount\n          tokenCount\n          continuedFrom {\n            id\n          }\n        }\n      }\n      ... on OperationError {\n        ...OperationErrorNoticeFields\n        currentContinuation {\n          id\n          title\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SessionTranscript($id: ID!, $last: Int!, $before: String) {\n    session(id: $id) {\n      id\n      kind\n      status\n      title\n      description\n      createdAt\n      eventCount\n      tokenCount\n      events(last: $last, before: $before) {\n        edges {\n          node {\n            ...TranscriptEvent\n          }\n        }\n        pageInfo {\n          hasPreviousPage\n          hasNextPage\n          startCursor\n          endCursor\n        }\n        totalCount\n      }\n    }\n  }\n"): (typeof documents)["\n  query SessionTranscript($id: ID!, $last: Int!, $before: String) {\n    session(id: $id) {\n      id\n      kind\n      status\n      title\n      description\n      createdAt\n      eventCount\n      tokenCount\n      events(last: $last, before: $before) {\n        edges {\n          node {\n            ...TranscriptEvent\n          }\n        }\n        pageInfo {\n          hasPreviousPage\n          hasNextPage\n          startCursor\n          endCursor\n        }\n        totalCount\n      }\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;