import { TopBar } from '../../app/shell/TopBar';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import { commandShortcut } from '../../app/keyboard';
import { CreateSessionForm } from './CreateSessionForm';
import './sessions.css';

/** The route `/`: a new conversation. The conversations themselves are in the sidebar. */
export function HomePage() {
  useDocumentTitle('New conversation');
  return (
    <div className="page home-page">
      <TopBar>
        <h1>New conversation</h1>
      </TopBar>
      <div className="page-body">
        <CreateSessionForm />
        <p className="hint home-hint">
          Your conversations are in the sidebar, each with the sessions it continued from folded beneath it. Press{' '}
          <kbd className="shortcut">{commandShortcut('K')}</kbd> to search them and everything said in them, or{' '}
          <kbd className="shortcut">?</kbd> for all shortcuts.
        </p>
      </div>
    </div>
  );
}
