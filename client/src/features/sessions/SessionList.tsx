import { Link } from 'react-router';
import { formatCount, formatDateTime } from '../../app/format';
import { graphql } from '../../gql';
import type { SessionSummaryFragment } from '../../gql/graphql';
import { useSessions } from './useSessions';

export const SessionSummaryFragmentDocument = graphql(`
  fragment SessionSummary on Session {
    id
    kind
    status
    title
    description
    createdAt
    currentContinuation {
      id
      title
      status
      lineage {
        id
      }
    }
  }
`);

export function SessionList() {
  const { sessions, totalCount, loading, error, hasMore, loadingMore, moreError, loadMore } = useSessions();

  if (loading) {
    return (
      <p className="page-state" role="status">
        Loading sessions…
      </p>
    );
  }
  if (error && sessions.length === 0) {
    return (
      <p className="notice notice-error" role="alert">
        Sessions could not be loaded: {error.message}
      </p>
    );
  }
  if (sessions.length === 0) {
    return <p className="empty-state">No sessions yet. Start one above.</p>;
  }

  return (
    <>
      <p className="hint" aria-live="polite">
        Showing {sessions.length} of {formatCount(totalCount, 'session')}
      </p>
      <ul className="session-list">
        {sessions.map((session) => (
          <li key={session.id}>
            <SessionListItem session={session} />
          </li>
        ))}
      </ul>
      {moreError && (
        <p className="notice notice-error" role="alert">
          More sessions could not be loaded: {moreError.message}
        </p>
      )}
      {hasMore && (
        <button type="button" className="button load-more" onClick={() => void loadMore()} disabled={loadingMore}>
          {loadingMore ? 'Loading…' : 'Load more sessions'}
        </button>
      )}
    </>
  );
}

/** One lineage: its origin's title, leading to where the conversation is now (the head). */
function SessionListItem({ session }: { session: SessionSummaryFragment }) {
  const head = session.currentContinuation;
  const continued = head.id !== session.id;
  return (
    <Link to={`/sessions/${head.id}`} className="session-card">
      <span className="session-card-title">{session.title}</span>
      {continued && <span className="session-card-head">Now in “{head.title}”</span>}
      {session.description && <span className="session-card-description">{session.description}</span>}
      <span className="session-facts">
        <span className={`badge badge-${head.status.toLowerCase()}`}>{head.status.toLowerCase()}</span>
        <span>{continued ? `${formatCount(head.lineage.length, 'session')} in lineage` : session.kind.toLowerCase()}</span>
        <time dateTime={session.createdAt}>{formatDateTime(session.createdAt)}</time>
      </span>
    </Link>
  );
}
