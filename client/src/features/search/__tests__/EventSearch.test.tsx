import type { MockLink } from '@apollo/client/testing';
import { MockedProvider } from '@apollo/client/testing/react';
import { describe, expect, it } from '@jest/globals';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { createCache } from '../../../app/cache';
import type { EventSearchHitRowFragment, SearchScope } from '../../../gql/graphql';
import { EventSearch } from '../EventSearch';
import { snippetParts } from '../search-snippet';
import { SEARCH_PAGE_SIZE, SearchEventsQuery } from '../useEventSearch';

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
          pageInfo: {
            __typename: 'PageInfo',
            hasNextPage,
            endCursor: hits.length > 0 ? `cursor-${hits[hits.length - 1].event.id}` : null,
          },
        },
      },
    },
  };
}

function refusalMock(query: string, message: string): MockLink.MockedResponse {
  return {
    request: { query: SearchEventsQuery, variables: { query, scope: 'ACCOUNT', first: SEARCH_PAGE_SIZE } },
    result: { errors: [{ message, path: ['searchEvents'], extensions: { code: 'INVALID_INPUT' } }] },
  };
}

function OpenedSession() {
  const location = useLocation();
  return <p>Opened {`${location.pathname}${location.search}`}</p>;
}

function renderSearch(mocks: MockLink.MockedResponse[], sessionId?: string) {
  render(
    <MockedProvider cache={createCache()} mocks={mocks}>
      <MemoryRouter initialEntries={['/']}>
        <Routes>
          <Route index element={<EventSearch sessionId={sessionId} />} />
          <Route path="sessions/:sessionId" element={<OpenedSession />} />
        </Routes>
      </MemoryRouter>
    </MockedProvider>,
  );
}

function searchFor(text: string) {
  fireEvent.change(screen.getByRole('searchbox', { name: 'Search' }), { target: { value: text } });
  fireEvent.click(screen.getByRole('button', { name: 'Search' }));
}

function results() {
  return screen.getByRole('region', { name: 'Search results' });
}

describe('searching events', () => {
  it('reads a snippet as text with its matches marked, and nothing else as markup', () => {
    expect(snippetParts('rotate the <mark>keys</mark> &#60;b&#62;weekly&#60;/b&#62; &amp; more')).toEqual([
      { text: 'rotate the ', marked: false },
      { text: 'keys', marked: true },
      { text: ' <b>weekly</b> & more', marked: false },
    ]);
  });

  it('shows each hit with its marked snippet, session, event, author, time and score; other text stays text', async () => {
    const snippet = '&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62; we <mark>rotate</mark> the <mark>keys</mark> <img src=x>';
    renderSearch([searchMock({ query: 'rotate keys', scope: 'ACCOUNT', hits: [hit(3, snippet, 0.4213)] })]);

    searchFor('  rotate keys ');

    const link = await within(results()).findByRole('link', { name: /Key rotation/ });
    expect(link).toHaveAttribute('href', '/sessions/session-7?from=event-3&to=event-3');
    expect(link).toHaveTextContent('event 3');
    expect(link).toHaveTextContent('You');
    expect(link).toHaveTextContent('score 0.42');
    expect(link.querySelector('time')).toHaveAttribute('datetime', '2026-03-01T10:00:00.000Z');
    expect([...link.querySelectorAll('mark')].map((mark) => mark.textContent)).toEqual(['rotate', 'keys']);
    const shown = link.querySelector('.search-hit-snippet');
    expect(shown).toHaveTextContent('<script>alert("x")</script> we rotate the keys <img src=x>');
    expect(shown?.querySelector('script, img')).toBeNull();
    expect(within(results()).getByText('Showing 1 hit for “rotate keys” in all sessions.')).toBeInTheDocument();
  });

  it('sends no empty query, and says why the server refused one', async () => {
    renderSearch([refusalMock('-draft', 'The query only excludes words: name something to find.')]);

    searchFor('   ');
    expect(screen.getByRole('alert')).toHaveTextContent('Type what to look for first.');
    expect(screen.getByRole('searchbox', { name: 'Search' })).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByRole('region', { name: 'Search results' })).not.toBeInTheDocument();

    searchFor('-draft');
    const refusal = await within(results()).findByRole('alert');
    expect(refusal).toHaveTextContent('The search was not run: The query only excludes words: name something to find.');
  });

  it('says when nothing matches', async () => {
    renderSearch([searchMock({ query: 'zebra', scope: 'ACCOUNT', hits: [] })]);

    searchFor('zebra');

    await within(results()).findByText('No events match “zebra” in all sessions.');
    expect(within(results()).queryByRole('listitem')).not.toBeInTheDocument();
  });

  it('searches the lineage by default on a session, and again in the scope chosen', async () => {
    renderSearch(
      [
        searchMock({ query: 'keys', scope: 'LINEAGE', sessionId: 'session-7', hits: [hit(1, 'the <mark>keys</mark>'), hit(2, '<mark>keys</mark> again')] }),
        searchMock({ query: 'keys', scope: 'SESSION', sessionId: 'session-7', hits: [hit(2, '<mark>keys</mark> again')] }),
        searchMock({ query: 'keys', scope: 'ACCOUNT', hits: [hit(5, 'other <mark>keys</mark>')] }),
      ],
      'session-7',
    );
    const scope = screen.getByRole('combobox', { name: 'Search in' });
    expect(scope).toHaveValue('LINEAGE');
    expect(within(scope).getAllByRole('option').map((option) => option.textContent)).toEqual(['This session', 'This lineage', 'Everything']);

    searchFor('keys');
    await within(results()).findByText('Showing 2 hits for “keys” in this lineage.');

    fireEvent.change(scope, { target: { value: 'SESSION' } });
    await within(results()).findByText('Showing 1 hit for “keys” in this session.');
    expect(within(results()).getAllByRole('link')).toHaveLength(1);

    fireEvent.change(scope, { target: { value: 'ACCOUNT' } });
    await within(results()).findByText('Showing 1 hit for “keys” in all sessions.');
    expect(within(results()).getByRole('link')).toHaveTextContent('event 5');
  });

  it('offers no scope on the session list: it searches everything', () => {
    renderSearch([]);
    expect(screen.getByRole('search', { name: 'Search all sessions' })).toBeInTheDocument();
    expect(screen.queryByRole('combobox')).not.toBeInTheDocument();
  });

  it('pages on with the cursor of the last hit', async () => {
    const firstPage = Array.from({ length: SEARCH_PAGE_SIZE }, (_, index) => hit(index + 1, `<mark>deploy</mark> ${index + 1}`));
    renderSearch([
      searchMock({ query: 'deploy', scope: 'ACCOUNT', hits: firstPage, hasNextPage: true }),
      searchMock({ query: 'deploy', scope: 'ACCOUNT', after: `cursor-event-${SEARCH_PAGE_SIZE}`, hits: [hit(11, '<mark>deploy</mark> 11'), hit(12, '<mark>deploy</mark> 12')] }),
    ]);

    searchFor('deploy');
    await within(results()).findByText('Showing the best 10 hits for “deploy” in all sessions; more below.');
    fireEvent.click(within(results()).getByRole('button', { name: 'More results' }));

    await within(results()).findByText('Showing 12 hits for “deploy” in all sessions.');
    expect(within(results()).getAllByRole('link').map((link) => link.querySelector('.search-hit-snippet')?.textContent)).toEqual(
      Array.from({ length: 12 }, (_, index) => `deploy ${index + 1}`),
    );
    expect(within(results()).queryByRole('button', { name: 'More results' })).not.toBeInTheDocument();
  });

  it('opens a hit at its exact event, and puts the results away with Escape', async () => {
    renderSearch([
      searchMock({ query: 'keys', scope: 'ACCOUNT', hits: [hit(4, 'the <mark>keys</mark>')] }),
      searchMock({ query: 'keys', scope: 'ACCOUNT', hits: [hit(4, 'the <mark>keys</mark>')] }),
    ]);

    searchFor('keys');
    await within(results()).findByRole('link');
    fireEvent.keyDown(screen.getByRole('searchbox', { name: 'Search' }), { key: 'Escape' });
    expect(screen.queryByRole('region', { name: 'Search results' })).not.toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    fireEvent.click(await within(results()).findByRole('link'));

    expect(await screen.findByText('Opened /sessions/session-7?from=event-4&to=event-4')).toBeInTheDocument();
  });
});
