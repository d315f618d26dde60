import { MockedProvider } from '@apollo/client/testing/react';
import type { MockLink } from '@apollo/client/testing';
import { describe, expect, it } from '@jest/globals';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { createCache } from '../../../app/cache';
import type { HandoffInspectionQuery, ManifestItemRowFragment } from '../../../gql/graphql';
import { HandoffInspectorPage } from '../HandoffInspectorPage';
import { HandoffInspectionQuery as HandoffInspectionDocument } from '../useHandoffInspection';

type Edge = NonNullable<HandoffInspectionQuery['continuationEdge']>;

function item(overrides: Partial<ManifestItemRowFragment>): ManifestItemRowFragment {
  return {
    __typename: 'ManifestItem',
    kind: 'SESSION_EVENTS',
    status: 'INCLUDED',
    origin: 'CITED',
    score: null,
    relevance: 'relevant',
    sessionId: null,
    fromEventId: null,
    toEventId: null,
    eventId: null,
    url: null,
    version: null,
    blockId: null,
    path: null,
    cid: null,
    tokenCount: 10,
    hash: null,
    ...overrides,
  };
}

const ITEMS: ManifestItemRowFragment[] = [
  item({
    kind: 'SESSION_EVENT',
    origin: 'RUNTIME',
    relevance: 'the initiating user message',
    sessionId: 'pred',
    eventId: 'ev-2',
    tokenCount: 8,
    hash: 'a1b2',
  }),
  item({
    status: 'OMITTED',
    origin: 'RUNTIME',
    relevance: 'recent exchange before the initiating message',
    sessionId: 'pred',
    fromEventId: 'ev-1',
    toEventId: 'ev-1',
    tokenCount: 5,
  }),
  item({
    kind: 'RESOURCE',
    status: 'UNAVAILABLE',
    relevance: 'the design document',
    url: 'https://docs.example/design',
    version: 'v3',
    blockId: 'intro',
    tokenCount: 120,
  }),
  item({ kind: 'RESOURCE', relevance: 'the API reference', url: 'https://docs.example/api', version: 'v7', tokenCount: 40 }),
  item({
    origin: 'RECOMMENDED',
    score: 0.8125,
    relevance: 'matches “manifest”, “design”; read back after an earlier projection left it out',
    sessionId: 'pred',
    fromEventId: 'ev-0',
    toEventId: 'ev-1',
    tokenCount: 30,
  }),
];

function lineageNode(
  id: string,
  title: string,
  depth: number,
  edge: { id: string; predecessorId: string; reason: 'TOPIC_CHANGE' | 'PHASE_CHANGE' } | null,
  createdAt: string,
): Edge['successor']['lineageTree'][number] {
  return {
    __typename: 'LineageNode',
    depth,
    session: { __typename: 'Session', id, title, status: edge?.id === 'edge-2' ? 'ACTIVE' : 'CONTINUED', createdAt },
    edge: edge && {
      __typename: 'ContinuationEdge',
      id: edge.id,
      reason: edge.reason,
      actor: 'AGENT',
      createdAt,
      predecessor: { __typename: 'Session', id: edge.predecessorId, title: edge.predecessorId === 'pred' ? 'Rethink compaction' : 'Session continuation proposal' },
    },
  };
}

const EDGE: Edge = {
  __typename: 'ContinuationEdge',
  id: 'edge-1',
  reason: 'TOPIC_CHANGE',
  actor: 'AGENT',
  createdAt: '2026-03-01T10:54:00.000Z',
  predecessor: { __typename: 'Session', id: 'pred', title: 'Rethink compaction' },
  successor: {
    __typename: 'Session',
    id: 'succ',
    title: 'Session continuation proposal',
    origin: { __typename: 'Session', id: 'pred', title: 'Rethink compaction', currentContinuation: { __typename: 'Session', id: 'later' } },
    lineageTree: [
      lineageNode('pred', 'Rethink compaction', 0, null, '2026-03-01T09:00:00.000Z'),
      lineageNode('succ', 'Session continuation proposal', 1, { id: 'edge-1', predecessorId: 'pred', reason: 'TOPIC_CHANGE' }, '2026-03-01T10:54:00.000Z'),
      lineageNode('later', 'Implementation plan', 2, { id: 'edge-2', predecessorId: 'succ', reason: 'PHASE_CHANGE' }, '2026-03-01T11:30:00.000Z'),
    ],
  },
  handoff: {
    __typename: 'Handoff',
    purpose: 'Write the proposal',
    currentRequest: 'Draft the continuation design',
    establishedFacts: ['Summaries lose detail'],
    decisions: ['Keep transcripts immutable', 'Name it continuation'],
    openQuestions: [],
    nextActions: ['Outline the manifest'],
    cautions: [],
  },
  manifest: {
    __typename: 'ProjectionManifest',
    id: 'manifest-1',
    hash: '0eb9b4791ddf7bb3fd8f46422abaf6eb8b810d8eb919d62fe18793d544b8a1ac',
    compilerVersion: 'projection-compiler/1',
    modelVersion: 'o200k_base',
    createdAt: '2026-03-01T10:54:00.000Z',
    lineageBlock: '<session_continuation>\n  <origin session="pred" />\n</session_continuation>',
    tokenBudget: 500,
    tokenCost: 400,
    items: ITEMS,
    transferredState: {
      __typename: 'TransferredState',
      plan: 'OMIT',
      planRevision: null,
      pendingRunIds: [],
      pinnedTools: ['read_events'],
      pinnedResources: [],
    },
    context: {
      __typename: 'ProjectedContext',
      tokenCount: 400,
      sections: [
        { __typename: 'ContextSection', kind: 'SYSTEM', text: 'You are continuing work…', tokenCount: 100 },
        { __typename: 'ContextSection', kind: 'LINEAGE', text: '<session_continuation />', tokenCount: 150 },
        { __typename: 'ContextSection', kind: 'INITIATING_MESSAGE', text: '[event ev-2] Draft it', tokenCount: 50 },
        { __typename: 'ContextSection', kind: 'OMITTED_HANDLES', text: '- recent exchange', tokenCount: 100 },
      ],
    },
  },
};

function renderInspector(mock: MockLink.MockedResponse) {
  return render(
    <MockedProvider cache={createCache()} mocks={[mock]}>
      <MemoryRouter>
        <HandoffInspectorPage edgeId="edge-1" />
      </MemoryRouter>
    </MockedProvider>,
  );
}

const request = { query: HandoffInspectionDocument, variables: { edgeId: 'edge-1' } };

function itemCards(): HTMLElement[] {
  return within(screen.getByRole('region', { name: 'Projection manifest' }))
    .getAllByRole('article')
    .filter((card) => card.classList.contains('manifest-item'));
}

describe('the handoff inspector', () => {
  it('shows the readable handoff beside the manifest', async () => {
    renderInspector({ request, result: { data: { continuationEdge: EDGE } } });

    const handoff = await screen.findByRole('region', { name: 'What the agent handed over' });
    expect(handoff).toHaveTextContent('PurposeWrite the proposal');
    expect(handoff).toHaveTextContent('Current requestDraft the continuation design');
    expect(within(handoff).getByText('Keep transcripts immutable')).toBeInTheDocument();
    expect(within(handoff).getByText('Outline the manifest')).toBeInTheDocument();
    expect(within(handoff).getAllByText('None recorded')).toHaveLength(2);
    expect(screen.getByRole('link', { name: '“Rethink compaction”' })).toHaveAttribute('href', '/sessions/pred');
    expect(screen.getByRole('link', { name: '“Session continuation proposal”' })).toHaveAttribute('href', '/sessions/succ');
  });

  it('says in one sentence why and by whom the session was continued', async () => {
    const cases: [Pick<Edge, 'reason' | 'actor'>, string][] = [
      [{ reason: 'TOPIC_CHANGE', actor: 'AGENT' }, 'The topic changed; the agent continued in a new session.'],
      [{ reason: 'USER_REQUEST', actor: 'AGENT' }, 'You asked for a new session; the agent continued in a new session.'],
      [{ reason: 'USER_REQUEST', actor: 'USER' }, 'You continued in a new session.'],
      [{ reason: 'CONTEXT_PRESSURE', actor: 'SYSTEM' }, 'The context was full; the runtime continued in a new session.'],
    ];
    for (const [edge, sentence] of cases) {
      const { unmount } = renderInspector({ request, result: { data: { continuationEdge: { ...EDGE, ...edge } } } });
      const facts = await screen.findByText(sentence);
      expect(facts.closest('.session-facts')).not.toHaveTextContent(/\bby (the agent|a person|the runtime)/);
      unmount();
    }
  });

  it('names the handoff in the tab title', async () => {
    renderInspector({ request, result: { data: { continuationEdge: EDGE } } });

    await screen.findByRole('region', { name: 'Projection manifest' });
    expect(document.title).toBe('Handoff: “Rethink compaction” → “Session continuation proposal” · Session Continuation');
  });

  it('draws the lineage as a map: every session a link, the inspected continuation and the latest session marked', async () => {
    renderInspector({ request, result: { data: { continuationEdge: EDGE } } });

    const map = await screen.findByRole('list', { name: 'Lineage map of “Rethink compaction”' });
    const rows = within(map).getAllByRole('listitem');
    expect(rows.map((row) => within(row).getByRole('link').getAttribute('href'))).toEqual(['/sessions/pred', '/sessions/succ', '/sessions/later']);
    expect(rows[1]).toHaveTextContent('Continued from “Rethink compaction”: The topic changed; the agent continued in a new session.');
    expect(rows[1]).toHaveTextContent('this handoff');
    expect(rows[2]).toHaveTextContent('latest');
    expect(rows[0]).not.toHaveTextContent('this handoff');
  });

  it('lists every source with its status in words and symbols, kind, relevance and tokens', async () => {
    renderInspector({ request, result: { data: { continuationEdge: EDGE } } });

    await screen.findByText('5 sources: 3 included, 1 omitted, 1 unavailable');
    const cards = itemCards();
    expect(cards.map((card) => card.querySelector('.status')?.textContent)).toEqual([
      '● Included',
      '○ Omitted',
      '⊘ Unavailable',
      '● Included',
      '● Included',
    ]);
    expect(cards[0]).toHaveTextContent('Event');
    expect(cards[0]).toHaveTextContent('8 tokens');
    expect(cards[0]).toHaveTextContent('from the predecessor “Rethink compaction”');
    expect(cards[1]).toHaveTextContent('Event range');
    expect(cards[1]).toHaveTextContent('linked but not loaded: it did not fit the budget');
    expect(cards[2]).toHaveTextContent('no longer accessible; nothing was put in its place');
    expect(cards[2]).toHaveTextContent('https://docs.example/design');
    expect(cards[2]).toHaveTextContent('v3');
  });

  it('says who chose each source, and how a recommendation scored', async () => {
    renderInspector({ request, result: { data: { continuationEdge: EDGE } } });

    await screen.findByText('5 sources: 3 included, 1 omitted, 1 unavailable');
    const cards = itemCards();
    expect(cards.map((card) => card.querySelector('.origin')?.textContent)).toEqual([
      'Added by the runtime',
      'Added by the runtime',
      'Cited by the agent',
      'Cited by the agent',
      'Recommended',
    ]);
    expect(cards[4]).toHaveTextContent('score 0.81');
    expect(cards[4]).toHaveTextContent('matches “manifest”, “design”');
    expect(cards.slice(0, 4).map((card) => card.textContent)).not.toContainEqual(expect.stringContaining('score'));
  });

  it('links each openable source to its exact events or address, and no unavailable one', async () => {
    renderInspector({ request, result: { data: { continuationEdge: EDGE } } });

    await screen.findByText('5 sources: 3 included, 1 omitted, 1 unavailable');
    const [initiating, recent, unavailable, resource] = itemCards();
    expect(within(initiating).getByRole('link', { name: 'Open source: the initiating user message' })).toHaveAttribute(
      'href',
      '/sessions/pred?from=ev-2&to=ev-2',
    );
    expect(within(recent).getByRole('link', { name: /Open source/ })).toHaveAttribute('href', '/sessions/pred?from=ev-1&to=ev-1');
    expect(within(unavailable).queryByRole('link')).not.toBeInTheDocument();
    expect(within(resource).getByRole('link', { name: /Open source: the API reference/ })).toHaveAttribute(
      'href',
      'https://docs.example/api',
    );
  });

  it('draws the budget as a bar split by context section, with every number in the legend', async () => {
    renderInspector({ request, result: { data: { continuationEdge: EDGE } } });

    const budget = await screen.findByRole('figure', { name: '400 of 500 tokens used (80%)' });
    const segments = [...budget.querySelectorAll<HTMLElement>('.budget-segment')];
    expect(segments.map((segment) => segment.style.width)).toEqual(['20%', '30%', '10%', '20%']);
    const legend = within(budget).getAllByRole('listitem').map((entry) => entry.textContent);
    expect(legend).toEqual([
      'Control and safety: 100 tokens',
      'Lineage block: 150 tokens',
      'Initiating message: 50 tokens',
      'Handles of omitted sources: 100 tokens',
      'Unused: 100 tokens',
    ]);
  });

  it('shows the lineage block, the manifest hash and the compiler and model versions', async () => {
    renderInspector({ request, result: { data: { continuationEdge: EDGE } } });

    await screen.findByText(EDGE.manifest.hash);
    expect(screen.getByText('projection-compiler/1')).toBeInTheDocument();
    expect(screen.getByText('o200k_base')).toBeInTheDocument();
    expect(screen.getByText(/<origin session="pred" \/>/)).toBeInTheDocument();
    expect(screen.getByText('read_events')).toBeInTheDocument();
  });

  it('says so when there is no such continuation', async () => {
    renderInspector({ request, result: { data: { continuationEdge: null } } });

    expect(await screen.findByRole('heading', { name: 'Continuation not found' })).toBeInTheDocument();
  });

  it('says so when the handoff cannot be loaded', async () => {
    renderInspector({ request, error: new Error('Network down') });

    expect(await screen.findByRole('heading', { name: 'The handoff could not be loaded' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Network down');
  });
});
