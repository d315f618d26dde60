import { useQuery } from '@apollo/client/react';
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { Link } from 'react-router';
import { graphql } from '../../gql';
import { LineageList } from '../../features/sessions/LineageList';
import { useApiKey } from '../auth';
import { Icon } from '../icons';
import { commandShortcut } from '../keyboard';
import { ThemeChoice } from '../ThemeChoice';
import { useServerHealth, type ServerHealth } from '../useServerHealth';

export const ViewerQuery = graphql(`
  query Viewer {
    viewer {
      id
      name
    }
  }
`);

const HEALTH_LABEL: Record<ServerHealth, string> = {
  checking: 'Checking server…',
  ok: 'Server online',
  unreachable: 'Server unreachable',
};

interface SidebarProps {
  /** The session on screen, if any. */
  currentSessionId: string | null;
  /** A drawer over the page (a narrow screen), open: it holds the focus until it closes. */
  drawer: boolean;
  onHide(): void;
  onSearch(): void;
  onShortcuts(): void;
}

/**
 * The app's side column: a new conversation, search, every conversation by lineage, and the
 * account, the server's state and the theme at its foot. On a narrow screen it is a drawer.
 */
export function Sidebar({ currentSessionId, drawer, onHide, onSearch, onShortcuts }: SidebarProps) {
  const health = useServerHealth();
  const { data } = useQuery(ViewerQuery);
  const { signOut } = useApiKey();
  const hideRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (drawer) hideRef.current?.focus();
  }, [drawer]);

  function closeOnEscape(event: KeyboardEvent) {
    if (drawer && event.key === 'Escape') {
      event.preventDefault();
      onHide();
    }
  }
  // On a narrow screen a conversation opened from the drawer closes it.
  const onOpen = () => {
    if (drawer) onHide();
  };

  return (
    <div
      id="sidebar"
      className="sidebar"
      onKeyDown={closeOnEscape}
      {...(drawer ? { role: 'dialog', 'aria-modal': true, 'aria-label': 'Conversations', 'data-drawer-open': '' } : {})}
    >
      <div className="sidebar-top">
        <Link to="/" className="app-title" onClick={onOpen}>
          Session Continuation
        </Link>
        <button ref={hideRef} type="button" className="icon-button" aria-label={drawer ? 'Close conversations' : 'Hide the sidebar'} onClick={onHide}>
          <Icon name={drawer ? 'close' : 'sidebar'} />
        </button>
      </div>
      <div className="sidebar-actions">
        <Link to="/" className="button sidebar-new" onClick={onOpen}>
          <Icon name="plus" /> New conversation
        </Link>
        <button type="button" className="button sidebar-search" onClick={onSearch} aria-keyshortcuts="Control+K Meta+K">
          <Icon name="search" /> Search <kbd className="shortcut">{commandShortcut('K')}</kbd>
        </button>
      </div>
      <nav aria-label="Conversations" className="sidebar-conversations">
        <LineageList currentSessionId={currentSessionId} onOpen={onOpen} />
      </nav>
      <footer className="sidebar-footer">
        <ThemeChoice />
        <div className="sidebar-account">
          <span className={`health health-${health}`} role="status">
            {HEALTH_LABEL[health]}
          </span>
          {data && (
            <Link to="/account" className="viewer" onClick={onOpen} title="Account: retention, import, erasures">
              <span className="visually-hidden">Signed in as </span>
              {data.viewer.name}
            </Link>
          )}
        </div>
        <div className="sidebar-footer-actions">
          <Link to="/keys" className="button button-quiet" onClick={onOpen}>
            API keys
          </Link>
          <button type="button" className="button button-quiet" onClick={onShortcuts} aria-keyshortcuts="Shift+?">
            Keyboard shortcuts
          </button>
          <button type="button" className="button button-quiet" onClick={signOut}>
            Sign out
          </button>
        </div>
      </footer>
    </div>
  );
}
