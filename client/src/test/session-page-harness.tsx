import { ApolloLink } from '@apollo/client';
import { MockLink, MockSubscriptionLink } from '@apollo/client/testing';
import { MockedProvider } from '@apollo/client/testing/react';
import { expect } from '@jest/globals';
import { render, screen, waitFor, within } from '@testing-library/react';
import { OperationTypeNode } from 'graphql';
import { MemoryRouter, Route, Routes, useLocation, useParams } from 'react-router';
import { defer, finalize } from 'rxjs';
import { createCache } from '../app/cache';
import type { SessionLineageQuery, SessionStatus, SessionTranscriptQuery, TranscriptEventFragment } from '../gql/graphql';
import { SessionLineageQuery as SessionLineageDocument } from '../features/lineage/useSessionLineage';
import { agentStateMock } from './agent-state-mocks';
import { SessionPage } from '../features/transcript/SessionPage';
import {
  SessionTranscriptQuery as SessionTranscriptDocument,
  TRANSCRIPT_PAGE_SIZE,
} from '../features/transcript/useSessionTranscript';

/** The session every page test shows. */
export const SESSION_ID = 'session-1';

type LoadedSession = NonNullable<SessionTranscriptQuery['session']>;
export type SessionShape = Omit<LoadedSession, 'events' | 'eventCount' | 'tokenCount'>;
export type LineageShape = NonNullable<SessionLineageQuery['session']>;

/** Odd seqs are the user's, even ones the assistant's, unless `overrides` says otherwise. */
export function event(
  seq: number,
  text = `Message ${seq}`,
  overrides: Partial<TranscriptEventFragment> = {},
): TranscriptEventFragment {
  return {
    __typename: 'Event',
    id: `event-${seq}`,
    seq,
    kind: seq % 2 === 1 ? 'USER_MESSAGE' : 'ASSISTANT_MESSAGE',
    text,
    data: null,
    toolCallId: null,
    tokenCount: 2,
    createdAt: '2026-03-01T10:00:00.000Z',
    attachments: [],
    replayOf: null,
    erasedAt: null,
    erasure: null,
    ...overrides,
  };
}

/** An ACTIVE root session; `overrides` turns it into anything else. */
export function sessionShape(overrides: Partial<SessionShape> = {}): SessionShape {
  return {
    __typename: 'Session',
    id: SESSION_ID,
    kind: 'ROOT',
    status: 'ACTIVE',
    title: 'Plan the migration',
    description: null,
    createdAt: '2026-03-01T09:00:00.000Z',
    continuationApproval: 'AUTOMATIC',
    erasedAt: null,
    ...overrides,
  };
}

/**
 * A session with no lineage: its own origin and head. `session` must agree with the transcript
 * query's, since both write the same cached session.
 */
export function lineageShape(
  overrides: Partial<LineageShape> = {},
  session: { title?: string; status?: SessionStatus } = {},
): LineageShape {
  const { title = 'Plan the migration', status = 'ACTIVE' } = session;
  const head = overrides.currentContinuation ?? { __typename: 'Session', id: SESSION_ID, title, status };
  return {
    __typename: 'Session',
    id: SESSION_ID,
    currentContinuation: head,
    continuedFrom: null,
    continuations: [],
    origin: { __typename: 'Session', id: SESSION_ID, title, currentContinuation: { __typename: 'Session', id: head.id } },
    lineage: [{ __typename: 'Session', id: SESSION_ID, title }],
    lineageTree: [
      {
        __typename: 'LineageNode',
        depth: 0,
        session: { __typename: 'Session', id: SESSION_ID, title, status, createdAt: '2026-03-01T09:00:00.000Z' },
        edge: null,
      },
    ],
    ...overrides,
  };
}

export function lineageMock(lineage: LineageShape | null): MockLink.MockedResponse {
  return {
    request: { query: SessionLineageDocument, variables: { id: SESSION_ID } },
    result: { data: { session: lineage } },
  };
}

interface Page {
  events: TranscriptEventFragment[];
  hasPreviousPage?: boolean;
  totalCount?: number;
  session?: SessionShape;
}

export function transcriptMock(
  { events, hasPreviousPage = false, totalCount = events.length, session = sessionShape() }: Page,
  before?: string,
): MockLink.MockedResponse {
  return {
    request: {
      query: SessionTranscriptDocument,
      variables: { id: session.id, last: TRANSCRIPT_PAGE_SIZE, ...(before ? { before } : {}) },
    },
    result: {
      data: {
        session: {
          ...session,
          eventCount: totalCount,
          tokenCount: totalCount * 2,
          events: {
            __typename: 'EventConnection',
            edges: events.map((node) => ({ __typename: 'EventEdge', node })),
            pageInfo: {
              __typename: 'PageInfo',
              hasPreviousPage,
              hasNextPage: false,
              startCursor: events.length > 0 ? `cursor-${events[0].seq}` : null,
              endCursor: events.length > 0 ? `cursor-${events[events.length - 1].seq}` : null,
            },
            totalCount,
          },
        },
      },
    },
  };
}

/** Shows where the router went (any other session, the inspector) and with which state. */
function Elsewhere() {
  const location = useLocation();
  const { sessionId, edgeId } = useParams();
  return (
    <p data-testid="elsewhere" data-state={JSON.stringify(location.state ?? null)}>
      {sessionId ? `Opened session ${sessionId}` : `Opened handoff ${edgeId}`}
    </p>
  );
}

interface RenderOptions {
  /** Appended to the page's address, e.g. a cited range. */
  search?: string;
  /** What the lineage query answers; a session without lineage by default. */
  lineage?: LineageShape | null;
}

/**
 * Renders the session page at `/sessions/session-1` (plus `search`), with queries and mutations
 * answered by `mocks` and the lineage query, `sessionEvents` pushed through `transcriptFeed`,
 * `sessionContinued` through `continuations` and `continuationProposals` through `proposals`. Other sessions and the inspector render as a stub
 * naming the address. `requestsAnswered` waits until no query or mutation is left unanswered.
 */
export function renderSessionPage(
  mocks: MockLink.MockedResponse[],
  { search = '', lineage = lineageShape() }: RenderOptions = {},
) {
  const transcriptFeed = new MockSubscriptionLink();
  const continuations = new MockSubscriptionLink();
  const proposals = new MockSubscriptionLink();
  // MockLink answers each request after its own random 20–50 ms: what the page shows says
  // nothing about which of its other requests are still waiting for an answer.
  let unanswered = 0;
  const counted = new ApolloLink((operation, forward) =>
    defer(() => {
      unanswered += 1;
      return forward(operation).pipe(
        finalize(() => {
          unanswered -= 1;
        }),
      );
    }),
  );
  const link = ApolloLink.split(
    ({ operationName }) => operationName === 'SessionContinued',
    continuations,
    ApolloLink.split(
      ({ operationName }) => operationName === 'ContinuationProposals',
      proposals,
      ApolloLink.split(
        ({ operationType }) => operationType === OperationTypeNode.SUBSCRIPTION,
        transcriptFeed,
        // The agent-state query is answered quietly unless `mocks` answer it first.
        counted.concat(new MockLink([lineageMock(lineage), ...mocks, agentStateMock()])),
      ),
    ),
  );
  render(
    <MockedProvider cache={createCache()} link={link}>
      <MemoryRouter initialEntries={[`/sessions/${SESSION_ID}${search}`]}>
        <Routes>
          <Route path={`sessions/${SESSION_ID}`} element={<SessionPage sessionId={SESSION_ID} />} />
          <Route path="sessions/:sessionId" element={<Elsewhere />} />
          <Route path="continuations/:edgeId" element={<Elsewhere />} />
        </Routes>
      </MemoryRouter>
    </MockedProvider>,
  );
  const requestsAnswered = () => waitFor(() => expect(unanswered).toBe(0));
  return { transcriptFeed, continuations, proposals, requestsAnswered };
}

/** Waits for an event's text in the transcript (the composer may hold the same text). */
export function findInTranscript(text: string) {
  return within(screen.getByRole('log', { name: 'Transcript' })).findByText(text);
}

export function transcriptTexts(): string[] {
  const log = screen.getByRole('log', { name: 'Transcript' });
  return within(log)
    .getAllByRole('listitem')
    .map((item) => item.querySelector('.transcript-event-text')?.textContent ?? '');
}
