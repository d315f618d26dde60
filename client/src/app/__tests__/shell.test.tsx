import { MockedProvider } from '@apollo/client/testing/react';
import type { MockLink } from '@apollo/client/testing';
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { SIDEBAR_PAGE_SIZE, SidebarLineagesQuery } from '../../features/sessions/useSidebarLineages';
import { API_KEY_STORAGE_KEY } from '../api-key';
import { ApiKeyProvider } from '../auth';
import { createCache } from '../cache';
import { AppShell } from '../shell/AppShell';
import { TopBar } from '../shell/TopBar';
import { ViewerQuery } from '../shell/Sidebar';
import { THEME_STORAGE_KEY } from '../theme';

const mocks: MockLink.MockedResponse[] = [
  {
    request: { query: ViewerQuery },
    result: { data: { viewer: { __typename: 'Account', id: 'account-1', name: 'Ada' } } },
    maxUsageCount: Number.POSITIVE_INFINITY,
  },
  {
    request: { query: SidebarLineagesQuery, variables: { first: SIDEBAR_PAGE_SIZE } },
    result: {
      data: {
        sessions: {
          __typename: 'SessionConnection',
          edges: [],
          pageInfo: { __typename: 'PageInfo', hasNextPage: false, endCursor: null },
          totalCount: 0,
        },
      },
    },
    maxUsageCount: Number.POSITIVE_INFINITY,
  },
];

function renderShell() {
  const router = createMemoryRouter(
    [
      {
        element: <AppShell />,
        children: [
          {
            index: true,
            element: (
              <>
                <TopBar>
                  <h1>A page</h1>
                </TopBar>
                <textarea aria-label="Message" data-composer />
              </>
            ),
          },
        ],
      },
    ],
    { initialEntries: ['/'] },
  );
  render(
    <ApiKeyProvider>
      <MockedProvider cache={createCache()} mocks={mocks}>
        <RouterProvider router={router} />
      </MockedProvider>
    </ApiKeyProvider>,
  );
}

/** A media query answered as a device would: `dark` for the colour scheme, a wide screen. */
function pretendDevice({ dark = false, narrow = false } = {}) {
  window.matchMedia = ((query: string) => ({
    matches: query.includes('prefers-color-scheme: dark') ? dark : query.includes('max-width') ? narrow : false,
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  })) as unknown as typeof window.matchMedia;
}

beforeEach(() => {
  window.localStorage.clear();
  window.localStorage.setItem(API_KEY_STORAGE_KEY, 'key-1');
  delete document.documentElement.dataset.theme;
  pretendDevice();
  global.fetch = jest.fn(async () => new Response(JSON.stringify({ status: 'ok' }))) as unknown as typeof fetch;
});

afterEach(() => {
  delete (window as { matchMedia?: unknown }).matchMedia;
});

describe('the app shell', () => {
  it('follows the device until a theme is chosen, and remembers the choice', async () => {
    renderShell();
    const theme = await screen.findByRole('group', { name: 'Theme' });
    expect(within(theme).getByRole('radio', { name: 'System' })).toBeChecked();
    expect(document.documentElement.dataset.theme).toBeUndefined();

    fireEvent.click(within(theme).getByRole('radio', { name: 'Dark' }));
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');

    fireEvent.click(within(theme).getByRole('radio', { name: 'System' }));
    expect(document.documentElement.dataset.theme).toBeUndefined();
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBeNull();
  });

  it('opens the palette on Ctrl+K, even while typing, and the shortcuts on ?, but not while typing', async () => {
    renderShell();
    await screen.findByRole('navigation', { name: 'Conversations' });

    fireEvent.keyDown(screen.getByLabelText('Message'), { key: '?' });
    expect(screen.queryByRole('dialog', { name: 'Keyboard shortcuts' })).not.toBeInTheDocument();

    fireEvent.keyDown(document.body, { key: '?' });
    const shortcuts = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(within(shortcuts).getByRole('row', { name: /Ctrl\+K/ })).toHaveTextContent('Search conversations and messages, or run a command');
    fireEvent.click(within(shortcuts).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Keyboard shortcuts' })).not.toBeInTheDocument());

    fireEvent.keyDown(screen.getByLabelText('Message'), { key: 'k', ctrlKey: true });
    expect(await screen.findByRole('dialog', { name: 'Command palette' })).toBeInTheDocument();
  });

  it('moves to the message field on /', async () => {
    renderShell();
    await screen.findByRole('navigation', { name: 'Conversations' });

    fireEvent.keyDown(document.body, { key: '/' });
    expect(screen.getByLabelText('Message')).toHaveFocus();
  });

  it('hides and shows the sidebar, and remembers it hidden', async () => {
    renderShell();
    await screen.findByRole('navigation', { name: 'Conversations' });

    fireEvent.click(screen.getByRole('button', { name: 'Hide the sidebar' }));
    expect(screen.queryByRole('navigation', { name: 'Conversations' })).not.toBeInTheDocument();
    expect(window.localStorage.getItem('session-continuation.sidebarShown')).toBe('false');

    fireEvent.keyDown(document.body, { key: 'S', ctrlKey: true, shiftKey: true });
    expect(await screen.findByRole('navigation', { name: 'Conversations' })).toBeInTheDocument();
    expect(window.localStorage.getItem('session-continuation.sidebarShown')).toBe('true');
  });

  it('on a narrow screen opens the conversations as a drawer over the page, closed with Esc', async () => {
    pretendDevice({ narrow: true });
    renderShell();

    expect(screen.queryByRole('navigation', { name: 'Conversations' })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Show conversations' }));
    const drawer = screen.getByRole('dialog', { name: 'Conversations' });
    expect(within(drawer).getByRole('button', { name: 'Close conversations' })).toHaveFocus();
    expect(screen.getByRole('main', { hidden: true })).toHaveAttribute('inert');

    fireEvent.keyDown(drawer, { key: 'Escape' });
    expect(screen.queryByRole('dialog', { name: 'Conversations' })).not.toBeInTheDocument();
    expect(screen.getByRole('main')).not.toHaveAttribute('inert');
  });
});
