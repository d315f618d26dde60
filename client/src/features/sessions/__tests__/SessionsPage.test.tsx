import { MockedProvider } from '@apollo/client/testing/react';
import type { MockLink } from '@apollo/client/testing';
import { describe, expect, it } from '@jest/globals';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useParams } from 'react-router';
import { createCache } from '../../../app/cache';
import type { SessionSummaryFragment } from '../../../gql/graphql';
import { SessionsPage } from '../SessionsPage';
import { CreateSessionMutation } from '../useCreateSession';
import { SESSIONS_PAGE_SIZE, SessionsQuery } from '../useSessions';

function summary(n: number, title = `Session ${n}`): SessionSummaryFragment {
  const id = `session-${n}`;
  return {
    __typename: 'Session',
    id,
    kind: 'ROOT',
    status: 'ACTIVE',
    title,
    description: null,
    createdAt: '2026-03-01T09:00:00.000Z',
    currentContinuation: { __typename: 'Session', id, title, status: 'ACTIVE', lineage: [{ __typename: 'Session', id }] },
  };
}

/** An origin continued twice: its lineage's head is the second successor. */
function continuedTwice(n: number, title: string, headTitle: string): SessionSummaryFragment {
  const id = `session-${n}`;
  return {
    ...summary(n, title),
    status: 'CONTINUED',
    currentContinuation: {
      __typename: 'Session',
      id: `${id}-head`,
      title: headTitle,
      status: 'ACTIVE',
      lineage: [id, `${id}-middle`, `${id}-head`].map((step) => ({ __typename: 'Session' as const, id: step })),
    },
  };
}

function sessionsMock(sessions: SessionSummaryFragment[], totalCount: number, hasNextPage: boolean, after?: string) {
  return {
    request: { query: SessionsQuery, variables: { first: SESSIONS_PAGE_SIZE, ...(after ? { after } : {}) } },
    result: {
      data: {
        sessions: {
          __typename: 'SessionConnection' as const,
          edges: sessions.map((node) => ({ __typename: 'SessionEdge' as const, cursor: `cursor-${node.id}`, node })),
          pageInfo: {
            __typename: 'PageInfo' as const,
            hasNextPage,
            endCursor: sessions.length > 0 ? `cursor-${sessions[sessions.length - 1].id}` : null,
          },
          totalCount,
        },
      },
    },
  };
}

function OpenedSession() {
  return <p>Opened {useParams().sessionId}</p>;
}

function renderSessionsPage(mocks: MockLink.MockedResponse[]) {
  render(
    <MockedProvider cache={createCache()} mocks={mocks}>
      <MemoryRouter initialEntries={['/']}>
        <Routes>
          <Route index element={<SessionsPage />} />
          <Route path="sessions/:sessionId" element={<OpenedSession />} />
        </Routes>
      </MemoryRouter>
    </MockedProvider>,
  );
}

function listedTitles(): string[] {
  const list = screen.getByRole('list');
  return within(list)
    .getAllByRole('link')
    .map((link) => link.querySelector('.session-card-title')?.textContent ?? '');
}

describe('the sessions list', () => {
  it('shows the sessions in the order the server gives them and loads more on request', async () => {
    renderSessionsPage([
      sessionsMock([summary(3), summary(2)], 3, true),
      sessionsMock([summary(1)], 3, false, 'cursor-session-2'),
    ]);

    fireEvent.click(await screen.findByRole('button', { name: 'Load more sessions' }));

    expect(await screen.findByText('Session 1')).toBeInTheDocument();
    expect(listedTitles()).toEqual(['Session 3', 'Session 2', 'Session 1']);
    expect(screen.getByText('Showing 3 of 3 sessions')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more sessions' })).not.toBeInTheDocument();
  });

  it('shows each lineage once, by its origin, and leads to where it continues now', async () => {
    renderSessionsPage([
      sessionsMock([continuedTwice(2, 'Rethink compaction', 'Implementation plan'), summary(1, 'Release notes')], 2, false),
    ]);

    const continued = await screen.findByRole('link', { name: /Rethink compaction/ });
    expect(continued).toHaveAttribute('href', '/sessions/session-2-head');
    expect(continued).toHaveTextContent('Now in “Implementation plan”');
    expect(continued).toHaveTextContent('3 sessions in lineage');
    const single = screen.getByRole('link', { name: /Release notes/ });
    expect(single).toHaveAttribute('href', '/sessions/session-1');
    expect(single).not.toHaveTextContent('Now in');

    fireEvent.click(continued);
    expect(await screen.findByText('Opened session-2-head')).toBeInTheDocument();
  });

  it('says so when the sessions cannot be loaded', async () => {
    renderSessionsPage([
      {
        request: { query: SessionsQuery, variables: { first: SESSIONS_PAGE_SIZE } },
        error: new Error('Network down'),
      },
    ]);

    expect(await screen.findByRole('alert')).toHaveTextContent('Sessions could not be loaded: Network down');
  });

  it('says so when there are no sessions', async () => {
    renderSessionsPage([sessionsMock([], 0, false)]);

    expect(await screen.findByText('No sessions yet. Start one above.')).toBeInTheDocument();
  });
});

describe('creating a session', () => {
  it('creates the session from the form and opens it', async () => {
    const created = { ...summary(4, 'Release checklist'), description: 'Everything before Friday' };
    renderSessionsPage([
      sessionsMock([], 0, false),
      {
        request: {
          query: CreateSessionMutation,
          variables: { input: { title: 'Release checklist', description: 'Everything before Friday' } },
        },
        result: { data: { createSession: created } },
      },
      sessionsMock([created], 1, false),
    ]);
    await screen.findByText('No sessions yet. Start one above.');

    fireEvent.change(screen.getByLabelText('Title'), { target: { value: ' Release checklist ' } });
    fireEvent.change(screen.getByLabelText(/Description/), { target: { value: 'Everything before Friday' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create session' }));

    expect(await screen.findByText('Opened session-4')).toBeInTheDocument();
  });

  it('shows why the server refused to create it', async () => {
    renderSessionsPage([
      sessionsMock([], 0, false),
      {
        request: { query: CreateSessionMutation, variables: { input: { title: 'x', description: null } } },
        result: { errors: [{ message: 'title: at most 200 characters', extensions: { code: 'BAD_USER_INPUT' } }] },
      },
    ]);
    await screen.findByText('No sessions yet. Start one above.');

    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'x' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create session' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('title: at most 200 characters');
  });
});
