import { ApolloLink } from '@apollo/client';
import { MockLink, MockSubscriptionLink } from '@apollo/client/testing';
import { MockedProvider } from '@apollo/client/testing/react';
import { beforeEach, describe, expect, it } from '@jest/globals';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { createCache } from '../../../app/cache';
import type { RunStateFragment, SidebarLineageFragment } from '../../../gql/graphql';
import { LineageList } from '../LineageList';
import { SIDEBAR_PAGE_SIZE, SidebarLineagesQuery } from '../useSidebarLineages';

type TreeNode = SidebarLineageFragment['lineageTree'][number];

function node(id: string, title: string, at: number, predecessor: { id: string; title: string } | null): TreeNode {
  const createdAt = `2026-03-01T${String(at).padStart(2, '0')}:00:00.000Z`;
  return {
    __typename: 'LineageNode',
    depth: predecessor ? 1 : 0,
    session: { __typename: 'Session', id, title, status: 'ACTIVE', createdAt, erasedAt: null },
    edge: predecessor && {
      __typename: 'ContinuationEdge',
      id: `edge-${id}`,
      reason: 'TOPIC_CHANGE',
      actor: 'AGENT',
      createdAt,
      predecessor: { __typename: 'Session', ...predecessor },
    },
  };
}

function lineage(tree: TreeNode[], headId: string, runs: RunStateFragment[] = []): SidebarLineageFragment {
  const origin = tree[0].session;
  const head = tree.find((entry) => entry.session.id === headId)!.session;
  return {
    __typename: 'Session',
    id: origin.id,
    title: origin.title,
    createdAt: origin.createdAt,
    currentContinuation: { __typename: 'Session', id: head.id, title: head.title, status: 'ACTIVE', runs, pendingProposal: null },
    lineageTree: tree,
  };
}

const single = lineage([node('notes', 'Release notes', 1, null)], 'notes');
/** Plan → Deploy, and a branch of Plan written later: the head. */
const branched = lineage(
  [
    node('plan', 'Plan the release', 2, null),
    node('deploy', 'Deploy the service', 3, { id: 'plan', title: 'Plan the release' }),
    node('fix', 'Fix the flaky tests', 4, { id: 'plan', title: 'Plan the release' }),
  ],
  'fix',
);

function page(lineages: SidebarLineageFragment[], { hasNextPage = false, after }: { hasNextPage?: boolean; after?: string } = {}): MockLink.MockedResponse {
  return {
    request: { query: SidebarLineagesQuery, variables: { first: SIDEBAR_PAGE_SIZE, ...(after ? { after } : {}) } },
    result: {
      data: {
        sessions: {
          __typename: 'SessionConnection',
          edges: lineages.map((entry) => ({ __typename: 'SessionEdge', cursor: `cursor-${entry.id}`, node: entry })),
          pageInfo: { __typename: 'PageInfo', hasNextPage, endCursor: lineages.length ? `cursor-${lineages.at(-1)!.id}` : null },
          totalCount: lineages.length,
        },
      },
    },
  };
}

/** Queries answered by `mocks`; every subscription fed by hand, by its operation's name. */
function renderList(mocks: MockLink.MockedResponse[], currentSessionId: string | null = null) {
  const feeds = { AccountContinuations: new MockSubscriptionLink(), SessionActivityRuns: new MockSubscriptionLink(), SessionProposalStatus: new MockSubscriptionLink() };
  const link = ApolloLink.split(
    ({ operationName }) => (operationName ?? '') in feeds,
    new ApolloLink((operation, forward) => feeds[operation.operationName as keyof typeof feeds].request(operation) ?? forward(operation)),
    new MockLink(mocks),
  );
  const view = render(
    <MockedProvider cache={createCache()} link={link}>
      <MemoryRouter>
        <nav aria-label="Conversations">
          <LineageList currentSessionId={currentSessionId} onOpen={() => undefined} />
        </nav>
      </MemoryRouter>
    </MockedProvider>,
  );
  return { feeds, ...view };
}

/** simulateResult delivers on a zero-delay timer: let it fire inside act. */
async function push(feed: MockSubscriptionLink, data: Record<string, unknown>) {
  await act(async () => {
    feed.simulateResult({ result: { data } });
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

const entryOf = (title: RegExp) => screen.getAllByRole('listitem').find((item) => within(item).queryByRole('link', { name: title }) && item.classList.contains('lineage-entry'))!;

beforeEach(() => window.localStorage.clear());

describe('the conversations in the sidebar', () => {
  it('lists each lineage once by its head, its sessions counted and a branched lineage marked', async () => {
    renderList([page([branched, single])]);

    const head = await screen.findByRole('link', { name: /^Fix the flaky tests/ });
    expect(head).toHaveAttribute('href', '/sessions/fix');
    expect(head).toHaveTextContent('3 sessions, branched');
    expect(screen.getByRole('link', { name: 'Release notes' })).toHaveAttribute('href', '/sessions/notes');
    // Nothing to fold in a lineage of one session, and the earlier sessions folded away.
    expect(within(entryOf(/^Release notes/)).queryByRole('button')).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Plan the release' })).not.toBeInTheDocument();
  });

  it('unfolds a lineage into its map, and remembers it unfolded', async () => {
    const { unmount } = renderList([page([branched, single])]);

    fireEvent.click(await screen.findByRole('button', { name: 'Unfold the 3 sessions of “Fix the flaky tests”' }));
    const map = screen.getByRole('list', { name: 'Lineage map of “Fix the flaky tests”' });
    expect(within(map).getAllByRole('link').map((link) => link.getAttribute('href'))).toEqual(['/sessions/plan', '/sessions/deploy', '/sessions/fix']);
    expect(within(map).getAllByRole('listitem')[2]).toHaveTextContent(/Branched from “Plan the release”.*latest|latest.*Branched/s);
    unmount();

    renderList([page([branched, single])]);
    expect(await screen.findByRole('list', { name: 'Lineage map of “Fix the flaky tests”' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Fold the 3 sessions of “Fix the flaky tests”' }));
    expect(screen.queryByRole('list', { name: /Lineage map/ })).not.toBeInTheDocument();
  });

  it('unfolds the lineage of an earlier session on screen, marking it as the current page', async () => {
    renderList([page([branched, single])], 'deploy');

    const map = await screen.findByRole('list', { name: 'Lineage map of “Fix the flaky tests”' });
    expect(within(map).getByRole('link', { name: 'Deploy the service' })).toHaveAttribute('aria-current', 'page');
  });

  it('moves a lineage to its new head as soon as it continues, whichever tab or agent continued it', async () => {
    const { feeds } = renderList([page([single])]);
    await screen.findByRole('link', { name: 'Release notes' });
    await waitFor(() => expect(feeds.AccountContinuations.operation).toBeDefined());

    const continued = lineage([node('notes', 'Release notes', 1, null), node('notes-2', 'Release notes, part 2', 5, { id: 'notes', title: 'Release notes' })], 'notes-2');
    await push(feeds.AccountContinuations, {
      sessionContinued: {
        __typename: 'SessionContinuedEvent',
        edge: { __typename: 'ContinuationEdge', id: 'edge-notes-2' },
        successor: { __typename: 'Session', id: 'notes-2', origin: continued },
      },
    });

    const head = await screen.findByRole('link', { name: /^Release notes, part 2/ });
    expect(head).toHaveAttribute('href', '/sessions/notes-2');
    expect(head).toHaveTextContent('2 sessions');
  });

  it('shows a badge while a head is answering or waiting for an approval, live', async () => {
    const { feeds } = renderList([page([single])]);
    const link = await screen.findByRole('link', { name: 'Release notes' });
    // A result simulated before the badge subscribed would be lost.
    await waitFor(() => expect(feeds.SessionActivityRuns.operation).toBeDefined());
    await waitFor(() => expect(feeds.SessionProposalStatus.operation).toBeDefined());
    const run = (status: RunStateFragment['status']): RunStateFragment => ({ __typename: 'Run', id: 'run-1', kind: 'TURN', status, error: null });

    await push(feeds.SessionActivityRuns, { runUpdated: run('RUNNING') });
    await waitFor(() => expect(link).toHaveTextContent('Answering'));
    await push(feeds.SessionActivityRuns, { runUpdated: run('SUCCEEDED') });
    await waitFor(() => expect(link).not.toHaveTextContent('Answering'));

    const proposal = (status: string) => ({ __typename: 'ContinuationProposal', id: 'proposal-1', status, expiresAt: '2999-01-01T00:00:00.000Z' });
    await push(feeds.SessionProposalStatus, { continuationProposals: proposal('PENDING') });
    await waitFor(() => expect(link).toHaveTextContent('Needs approval'));
    await push(feeds.SessionProposalStatus, { continuationProposals: proposal('REJECTED') });
    await waitFor(() => expect(link).not.toHaveTextContent('Needs approval'));
  });

  it('loads more conversations, and says so when they cannot be loaded', async () => {
    renderList([page([single], { hasNextPage: true }), page([branched], { after: 'cursor-notes' })]);

    fireEvent.click(await screen.findByRole('button', { name: 'Load more conversations' }));
    expect(await screen.findByRole('link', { name: /^Fix the flaky tests/ })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more conversations' })).not.toBeInTheDocument();
  });

  it('says why the conversations could not be loaded', async () => {
    renderList([{ request: { query: SidebarLineagesQuery, variables: { first: SIDEBAR_PAGE_SIZE } }, error: new Error('Network down') }]);

    expect(await screen.findByRole('alert')).toHaveTextContent('Conversations could not be loaded: Network down');
  });
});
