import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { Outlet, useLocation, useMatch, useNavigate } from 'react-router';
import { useCommands, type Command } from '../commands';
import { commandShortcut } from '../keyboard';
import { useThemePreference } from '../theme';
import { useMediaQuery } from './useMediaQuery';
import { useRemembered } from './remembered';
import { ShellContext, type PaletteRequest, type Shell } from './shell-context';
import { Sidebar } from './Sidebar';
import { useGlobalShortcuts } from './useGlobalShortcuts';

// Opened on request only: neither is part of the first screen's JavaScript.
const CommandPalette = lazy(() => import('../../features/palette/CommandPalette'));
const ShortcutsDialog = lazy(() => import('./ShortcutsDialog'));

/** Below this width the sidebar is a drawer over the page (48rem: a tablet held upright). */
const NARROW = '(max-width: 47.99rem)';
const SIDEBAR_KEY = 'session-continuation.sidebarShown';

const parseShown = (stored: unknown) => (typeof stored === 'boolean' ? stored : null);

/** The message field of the page, if it has one. */
function focusComposer() {
  document.querySelector<HTMLTextAreaElement>('textarea[data-composer]')?.focus();
}

/**
 * The layout of every signed-in page: the sidebar of conversations (hidden or shown as
 * remembered; a drawer on a narrow screen), the page, and the command palette and the list of
 * shortcuts when asked for.
 */
export function AppShell() {
  const narrow = useMediaQuery(NARROW);
  const [shownWide, setShownWide] = useRemembered(SIDEBAR_KEY, true, parseShown);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [palette, setPalette] = useState<PaletteRequest | null>(null);
  const [shortcutsOpen, setShortcutsOpen] = useState(false);
  const navigate = useNavigate();
  const location = useLocation();
  const currentSessionId = useMatch('/sessions/:sessionId')?.params.sessionId ?? null;
  const [theme, setTheme] = useThemePreference();

  // Wherever the person went, the drawer has done its job.
  useEffect(() => setDrawerOpen(false), [location.key]);

  const sidebarShown = narrow ? drawerOpen : shownWide;
  const toggleSidebar = useCallback(() => {
    if (narrow) setDrawerOpen((open) => !open);
    else setShownWide(!shownWide);
  }, [narrow, shownWide, setShownWide]);
  // From a conversation, the palette offers to search just it or its lineage too.
  const openPalette = useCallback(
    (request: Partial<PaletteRequest> = {}) => setPalette({ scope: 'ACCOUNT', sessionId: currentSessionId, ...request }),
    [currentSessionId],
  );
  const openShortcuts = useCallback(() => setShortcutsOpen(true), []);
  const newConversation = useCallback(() => void navigate('/'), [navigate]);

  useGlobalShortcuts({ openPalette: () => openPalette(), openShortcuts, newConversation, toggleSidebar, focusComposer });

  const commands = useMemo<Command[]>(
    () => [
      { id: 'new-conversation', label: 'New conversation', keywords: 'create start session', shortcut: commandShortcut('O', { shift: true }), run: newConversation },
      { id: 'toggle-sidebar', label: sidebarShown ? 'Hide the sidebar' : 'Show the sidebar', keywords: 'conversations drawer', shortcut: commandShortcut('S', { shift: true }), run: toggleSidebar },
      {
        id: 'theme',
        label: theme === 'dark' ? 'Use the light theme' : 'Use the dark theme',
        keywords: 'theme colour color mode appearance',
        run: () => setTheme(theme === 'dark' ? 'light' : 'dark'),
      },
      { id: 'shortcuts', label: 'Keyboard shortcuts', keywords: 'help keys', shortcut: '?', run: openShortcuts },
      { id: 'account', label: 'Account: retention, import, erasures', keywords: 'settings retention import erasures delete', run: () => void navigate('/account') },
      { id: 'keys', label: 'API keys: create, share, revoke', keywords: 'tokens access scopes revoke share', run: () => void navigate('/keys') },
      { id: 'webhooks', label: 'Webhooks: endpoints and deliveries', keywords: 'webhooks endpoints deliveries redeliver integrations', run: () => void navigate('/webhooks') },
    ],
    [newConversation, sidebarShown, toggleSidebar, theme, setTheme, openShortcuts, navigate],
  );
  useCommands(commands);

  const shell = useMemo<Shell>(
    () => ({ narrow, sidebarShown, toggleSidebar, openPalette, openShortcuts }),
    [narrow, sidebarShown, toggleSidebar, openPalette, openShortcuts],
  );
  const drawer = narrow && drawerOpen;

  return (
    <ShellContext.Provider value={shell}>
      <div className={`app-shell${sidebarShown ? ' app-shell-sidebar' : ''}${narrow ? ' app-shell-narrow' : ''}`}>
        <a href="#main" className="skip-link">
          Skip to the page
        </a>
        {sidebarShown && (
          <Sidebar
            currentSessionId={currentSessionId}
            drawer={drawer}
            onHide={toggleSidebar}
            onSearch={() => openPalette()}
            onShortcuts={openShortcuts}
          />
        )}
        {drawer && <div className="drawer-backdrop" aria-hidden="true" onClick={toggleSidebar} />}
        <main id="main" className="app-main" inert={drawer}>
          <Outlet />
        </main>
        <Suspense fallback={null}>
          {palette && <CommandPalette request={palette} onClose={() => setPalette(null)} />}
          {shortcutsOpen && <ShortcutsDialog onClose={() => setShortcutsOpen(false)} />}
        </Suspense>
      </div>
    </ShellContext.Provider>
  );
}
