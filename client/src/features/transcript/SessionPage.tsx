import { Link, useParams } from 'react-router';
import { formatCount, formatDateTime } from '../../app/format';
import { Composer } from './Composer';
import { Transcript } from './Transcript';
import { useLiveTranscript } from './useLiveTranscript';
import { useSessionTranscript } from './useSessionTranscript';
import './transcript.css';

/** The route `/sessions/:sessionId`. */
export function SessionRoute() {
  const { sessionId } = useParams();
  // A new key remounts the page, so one session's scroll position never leaks into another.
  return sessionId ? <SessionPage key={sessionId} sessionId={sessionId} /> : null;
}

export function SessionPage({ sessionId }: { sessionId: string }) {
  const transcript = useSessionTranscript(sessionId);
  const live = useLiveTranscript(sessionId);
  const { session } = transcript;

  if (transcript.loading) {
    return (
      <p className="page-state" role="status">
        Loading session…
      </p>
    );
  }
  if (!session) {
    return (
      <section className="page-state">
        <h1>{transcript.error ? 'The session could not be loaded' : 'Session not found'}</h1>
        <p role={transcript.error ? 'alert' : undefined}>
          {transcript.error?.message ?? 'It does not exist, or it belongs to another account.'}
        </p>
        <Link to="/">Back to all sessions</Link>
      </section>
    );
  }

  return (
    <div className="session-page">
      <header className="session-header">
        <Link to="/" className="back-link">
          ← All sessions
        </Link>
        <h1>{session.title}</h1>
        {session.description && <p className="session-description">{session.description}</p>}
        <p className="session-facts">
          <span className={`badge badge-${session.status.toLowerCase()}`}>{session.status.toLowerCase()}</span>
          <span>{session.kind.toLowerCase()}</span>
          <span>{formatCount(session.eventCount, 'event')}</span>
          <span>{formatCount(session.tokenCount, 'token')}</span>
          <span>
            started <time dateTime={session.createdAt}>{formatDateTime(session.createdAt)}</time>
          </span>
        </p>
        {live.error && (
          <p className="notice notice-warning" role="status">
            Live updates are paused ({live.error.message}). Reload to catch up.
          </p>
        )}
      </header>
      <Transcript
        events={transcript.events}
        hasOlder={transcript.hasOlder}
        loadingOlder={transcript.loadingOlder}
        olderError={transcript.olderError}
        onLoadOlder={transcript.loadOlder}
      />
      <Composer sessionId={session.id} />
    </div>
  );
}
