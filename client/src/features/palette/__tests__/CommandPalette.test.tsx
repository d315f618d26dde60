import type { MockLink } from '@apollo/client/testing';
import { MockedProvider } from '@apollo/client/testing/react';
import { describe, expect, it, jest } from '@jest/globals';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { useMemo } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { createCache } from '../../../app/cache';
import { useCommands } from '../../../app/commands';
import type { EventSearchHitRowFragment, SearchScope, SidebarLineageFragment } from '../../../gql/graphql';
import { snippetParts } from '../../search/search-snippet';
import { SEARCH_PAGE_SIZE, SearchEventsQuery } from '../../search/useEventSearch';
import { SIDEBAR_PAGE_SIZE, SidebarLineagesQuery } from '../../sessions/useSidebarLineages';
import CommandPalette from '../CommandPalette';

function hit(n: number, snippet: string, score = 1 - n / 100): EventSearchHitRowFragment {
  return {
    __typename: 'EventSearchHit',
    score,
    snippet,
    event: {
      __typename: 'Event',
      id: `event-${n}`,
      seq: n,
      kind: n % 2 === 1 ? 'USER_MESSAGE' : 'ASSISTANT_MESSAGE',
      createdAt: '2026-03-01T10:00:00.000Z',
      session: { __typename: 'Session', id: 'session-7', title: 'Key rotation' },
    },
  };
}

interface Answer {
  query: string;
  scope: SearchScope;
  sessionId?: string;
  after?: string;
  hits: EventSearchHitRowFragment[];
  hasNextPage?: boolean;
}

function searchMock({ query, scope, sessionId, after, hits, hasNextPage = false }: Answer): MockLink.MockedResponse {
  return {
    request: {
      query: SearchEventsQuery,
      variables: { query, scope, first: SEARCH_PAGE_SIZE, ...(sessionId ? { sessionId } : {}), ...(after ? { after } : {}) },
    },
    result: {
      data: {
        searchEvents: {
          __typename: 'EventSearchConnection',
          edges: hits.map((node) => ({ __typename: 'EventSearchHitEdge', cursor: `cursor-${node.event.id}`, node })),
          pageInfo: { __typename: 'PageInfo', hasNextPage, endCursor: hits.length > 0 ? `cursor-${hits[hits.length - 1].event.id}` : null },
        },
      },
    },
  };
}

function lineage(id: string, title: string, predecessors: string[] = []): SidebarLineageFragment {
  const sessions = [...predecessors, title];
  const ids = sessions.map((_, index) => (index === sessions.length - 1 ? `${id}-head` : `${id}-${index}`));
  return {
    __typename: 'Session',
    id: ids[0],
    title: sessions[0],
    createdAt: '2026-03-01T00:00:00.000Z',
    currentContinuation: { __typename: 'Session', id: ids.at(-1)!, title, status: 'ACTIVE', runs: [], pendingProposal: null },
    lineageTree: sessions.map((sessionTitle, index) => ({
      __typename: 'LineageNode',
      depth: index,
      session: { __typename: 'Session', id: ids[index], title: sessionTitle, status: index === sessions.length - 1 ? 'ACTIVE' : 'CONTINUED', createdAt: `2026-03-01T0${index}:00:00.000Z`, erasedAt: null },
      edge:
        index === 0
          ? null
          : {
              __typename: 'ContinuationEdge',
              id: `edge-${ids[index]}`,
              reason: 'TOPIC_CHANGE',
              actor: 'AGENT',
              createdAt: `2026-03-01T0${index}:00:00.000Z`,
              predecessor: { __typename: 'Session', id: ids[index - 1], title: sessions[index - 1] },
            },
    })),
  };
}

function Opened() {
  const location = useLocation();
  return <p>Opened {`${location.pathname}${location.search}`}</p>;
}

/** The page's commands, as a view registers them. */
function PageCommands({ run }: { run: (id: string) => void }) {
  const commands = useMemo(
    () => [
      { id: 'continue', label: 'Continue in new session', keywords: 'handoff', run: () => run('continue') },
      { id: 'theme', label: 'Use the dark theme', keywords: 'appearance', run: () => run('theme') },
    ],
    [run],
  );
  useCommands(commands);
  return null;
}

function renderPalette(mocks: MockLink.MockedResponse[], { sessionId = null as string | null, scope = 'ACCOUNT' as SearchScope } = {}) {
  const cache = createCache();
  cache.writeQuery({
    query: SidebarLineagesQuery,
    variables: { first: SIDEBAR_PAGE_SIZE },
    data: {
      __typename: 'Query',
      sessions: {
        __typename: 'SessionConnection',
        edges: [lineage('a', 'Key rotation, part 2', ['Key rotation']), lineage('b', 'Release notes')].map((node) => ({ __typename: 'SessionEdge' as const, cursor: node.id, node })),
        pageInfo: { __typename: 'PageInfo', hasNextPage: false, endCursor: 'b' },
        totalCount: 2,
      },
    },
  });
  const onClose = jest.fn();
  const ran = jest.fn<(id: string) => void>();
  render(
    <MockedProvider cache={cache} mocks={mocks}>
      <MemoryRouter initialEntries={['/']}>
        <PageCommands run={ran} />
        <Routes>
          <Route index element={<CommandPalette request={{ scope, sessionId }} onClose={onClose} />} />
          <Route path="sessions/:sessionId" element={<Opened />} />
        </Routes>
      </MemoryRouter>
    </MockedProvider>,
  );
  return { onClose, ran };
}

const field = () => screen.getByRole('combobox', { name: 'Search conversations and messages, or run a command' });
const type = (text: string) => fireEvent.change(field(), { target: { value: text } });
const messages = () => screen.getByRole('group', { name: 'Messages' });

describe('the command palette', () => {
  it('reads a snippet as text with its matches marked, and nothing else as markup', () => {
    expect(snippetParts('rotate the <mark>keys</mark> &#60;b&#62;weekly&#60;/b&#62; &amp; more')).toEqual([
      { text: 'rotate the ', marked: false },
      { text: 'keys', marked: true },
      { text: ' <b>weekly</b> & more', marked: false },
    ]);
  });

  it('shows each message found with its marked snippet, session, event, author, time and score; other text stays text', async () => {
    const snippet = '&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62; we <mark>rotate</mark> the <mark>keys</mark> <img src=x>';
    renderPalette([searchMock({ query: 'rotate keys', scope: 'ACCOUNT', hits: [hit(3, snippet, 0.4213)] })]);

    type('  rotate keys ');

    const option = await within(await screen.findByRole('group', { name: 'Messages' })).findByRole('option');
    expect(option).toHaveTextContent('Key rotation');
    expect(option).toHaveTextContent('event 3');
    expect(option).toHaveTextContent('You');
    expect(option).toHaveTextContent('score 0.42');
    expect(option.querySelector('time')).toHaveAttribute('datetime', '2026-03-01T10:00:00.000Z');
    expect([...option.querySelectorAll('mark')].map((mark) => mark.textContent)).toEqual(['rotate', 'keys']);
    const shown = option.querySelector('.palette-hit-snippet');
    expect(shown).toHaveTextContent('<script>alert("x")</script> we rotate the keys <img src=x>');
    expect(shown?.querySelector('script, img')).toBeNull();
    expect(screen.getByText('1 message matches “rotate keys” in all sessions.')).toBeInTheDocument();
  });

  it('searches nothing for a query too short, and says why the server refused one', async () => {
    renderPalette([
      {
        request: { query: SearchEventsQuery, variables: { query: '-draft', scope: 'ACCOUNT', first: SEARCH_PAGE_SIZE } },
        result: { errors: [{ message: 'The query only excludes words: name something to find.', path: ['searchEvents'], extensions: { code: 'INVALID_INPUT' } }] },
      },
    ]);

    type('k');
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(screen.queryByRole('group', { name: 'Messages' })).not.toBeInTheDocument();

    type('-draft');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The search was not run: The query only excludes words: name something to find. Reword it.',
    );
  });

  it('says when no message matches', async () => {
    renderPalette([searchMock({ query: 'zebra', scope: 'ACCOUNT', hits: [] })]);

    type('zebra');

    expect(await screen.findByText('No messages match “zebra” in all sessions.')).toBeInTheDocument();
    expect(within(messages()).queryByRole('option')).not.toBeInTheDocument();
  });

  it('searches the lineage when opened from a conversation, and again in the scope chosen', async () => {
    renderPalette(
      [
        searchMock({ query: 'keys', scope: 'LINEAGE', sessionId: 'session-7', hits: [hit(1, 'the <mark>keys</mark>'), hit(2, '<mark>keys</mark> again')] }),
        searchMock({ query: 'keys', scope: 'SESSION', sessionId: 'session-7', hits: [hit(2, '<mark>keys</mark> again')] }),
        searchMock({ query: 'keys', scope: 'ACCOUNT', hits: [hit(5, 'other <mark>keys</mark>')] }),
      ],
      { sessionId: 'session-7', scope: 'LINEAGE' },
    );
    const scopes = screen.getByRole('group', { name: 'Search messages in' });
    expect(within(scopes).getAllByRole('radio').map((radio) => radio.closest('label')?.textContent)).toEqual(['Everything', 'This lineage', 'This session']);
    expect(within(scopes).getByRole('radio', { name: 'This lineage' })).toBeChecked();

    type('keys');
    await screen.findByText('2 messages match “keys” in this lineage.');

    fireEvent.click(within(scopes).getByRole('radio', { name: 'This session' }));
    await screen.findByText('1 message matches “keys” in this session.');

    fireEvent.click(within(scopes).getByRole('radio', { name: 'Everything' }));
    await screen.findByText('1 message matches “keys” in all sessions.');
    expect(within(messages()).getByRole('option')).toHaveTextContent('event 5');
  });

  it('offers no scope when opened outside a conversation: it searches everything', () => {
    renderPalette([]);
    expect(screen.queryByRole('group', { name: 'Search messages in' })).not.toBeInTheDocument();
  });

  it('pages on with the cursor of the last message found', async () => {
    const firstPage = Array.from({ length: SEARCH_PAGE_SIZE }, (_, index) => hit(index + 1, `<mark>deploy</mark> ${index + 1}`));
    renderPalette([
      searchMock({ query: 'deploy', scope: 'ACCOUNT', hits: firstPage, hasNextPage: true }),
      searchMock({ query: 'deploy', scope: 'ACCOUNT', after: `cursor-event-${SEARCH_PAGE_SIZE}`, hits: [hit(11, '<mark>deploy</mark> 11'), hit(12, '<mark>deploy</mark> 12')] }),
    ]);

    type('deploy');
    await screen.findByText('10+ messages match “deploy” in all sessions.');
    fireEvent.click(within(messages()).getByRole('option', { name: 'More messages' }));

    await screen.findByText('12 messages match “deploy” in all sessions.');
    expect(within(messages()).getAllByRole('option').map((option) => option.querySelector('.palette-hit-snippet')?.textContent)).toEqual(
      Array.from({ length: 12 }, (_, index) => `deploy ${index + 1}`),
    );
  });

  it('moves the choice with the arrows, keeps the focus in the field, and opens a message at its exact event as a search hit', async () => {
    const { onClose } = renderPalette([searchMock({ query: 'keys', scope: 'ACCOUNT', hits: [hit(4, 'the <mark>keys</mark>'), hit(6, 'more <mark>keys</mark>')] })]);

    type('keys');
    await within(await screen.findByRole('group', { name: 'Messages' })).findAllByRole('option');
    const chosen = () => screen.getByRole('option', { selected: true });
    expect(chosen()).toHaveTextContent('event 4');
    fireEvent.keyDown(field(), { key: 'ArrowDown' });
    expect(chosen()).toHaveTextContent('event 6');
    expect(field()).toHaveAttribute('aria-activedescendant', chosen().id);
    fireEvent.keyDown(field(), { key: 'ArrowDown' });
    expect(chosen()).toHaveTextContent('event 4');
    expect(field()).toHaveFocus();

    fireEvent.keyDown(field(), { key: 'Enter' });
    expect(await screen.findByText('Opened /sessions/session-7?from=event-4&to=event-4&via=search')).toBeInTheDocument();
    expect(onClose).toHaveBeenCalled();
  });

  it('finds conversations by title, older sessions of a lineage too, and opens one', async () => {
    renderPalette([]);

    type('key rotation');
    const found = screen.getByRole('group', { name: 'Conversations' });
    expect(within(found).getAllByRole('option').map((option) => option.querySelector('.palette-option-title')?.textContent)).toEqual([
      'Key rotation, part 2',
      'Key rotation',
    ]);
    expect(within(found).getAllByRole('option')[1]).toHaveTextContent('before “Key rotation, part 2”');
    fireEvent.click(within(found).getAllByRole('option')[1]);
    expect(await screen.findByText('Opened /sessions/a-0')).toBeInTheDocument();
  });

  it('runs the commands the page offers, found by their words', () => {
    const { ran, onClose } = renderPalette([]);
    expect(within(screen.getByRole('group', { name: 'Commands' })).getAllByRole('option').map((option) => option.textContent)).toEqual([
      'Continue in new session',
      'Use the dark theme',
    ]);

    type('handoff');
    const commands = within(screen.getByRole('group', { name: 'Commands' })).getAllByRole('option');
    expect(commands.map((option) => option.textContent)).toEqual(['Continue in new session']);
    fireEvent.keyDown(field(), { key: 'Enter' });
    expect(ran).toHaveBeenCalledWith('continue');
    expect(onClose).toHaveBeenCalled();
  });
});
