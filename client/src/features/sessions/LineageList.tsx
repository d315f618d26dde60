import { useId } from 'react';
import { Link } from 'react-router';
import { useRemembered } from '../../app/shell/remembered';
import type { SidebarLineageFragment } from '../../gql/graphql';
import { SessionActivityBadge } from '../agent/SessionActivityBadge';
import { LineageMap } from '../lineage/LineageMap';
import { useSidebarLineages } from './useSidebarLineages';
import './sessions.css';

/** The lineages unfolded in the sidebar, by origin id: remembered in this browser. */
const UNFOLDED_KEY = 'session-continuation.unfoldedLineages';
const REMEMBERED_UNFOLDED = 100;

const parseIds = (stored: unknown) => (Array.isArray(stored) ? stored.filter((id): id is string => typeof id === 'string') : null);

interface LineageListProps {
  /** The session on screen, if any. */
  currentSessionId: string | null;
  /** Called as a conversation opens, e.g. to close the drawer. */
  onOpen(): void;
}

/**
 * The viewer's conversations, one entry per lineage: its current head, with the sessions before
 * it folded beneath as a lineage map, a branched lineage marked, and a badge while its head is
 * answering or waiting for an approval.
 */
export function LineageList({ currentSessionId, onOpen }: LineageListProps) {
  const { lineages, loading, error, hasMore, loadingMore, moreError, loadMore } = useSidebarLineages();
  const [unfolded, setUnfolded] = useRemembered<string[]>(UNFOLDED_KEY, [], parseIds);

  function toggle(originId: string) {
    const next = unfolded.includes(originId) ? unfolded.filter((id) => id !== originId) : [...unfolded, originId];
    setUnfolded(next.slice(-REMEMBERED_UNFOLDED));
  }

  if (loading) {
    return (
      <p className="sidebar-state" role="status">
        Loading conversations…
      </p>
    );
  }
  if (error && lineages.length === 0) {
    return (
      <p className="notice notice-error" role="alert">
        Conversations could not be loaded: {error.message}
      </p>
    );
  }
  if (lineages.length === 0) return <p className="sidebar-state">No conversations yet.</p>;

  return (
    <>
      <ul className="lineage-list">
        {lineages.map((lineage) => {
          // Where the reader is, unfolded: a session of the lineage other than its head is on screen.
          const holdsCurrent = lineage.lineageTree.some((node) => node.session.id === currentSessionId);
          const here = holdsCurrent && lineage.currentContinuation.id !== currentSessionId;
          return (
            <LineageEntry
              key={lineage.id}
              lineage={lineage}
              currentSessionId={currentSessionId}
              unfolded={here || unfolded.includes(lineage.id)}
              onToggle={() => toggle(lineage.id)}
              onOpen={onOpen}
            />
          );
        })}
      </ul>
      {moreError && (
        <p className="notice notice-error" role="alert">
          More conversations could not be loaded: {moreError.message}
        </p>
      )}
      {hasMore && (
        <button type="button" className="button button-quiet load-more" onClick={() => void loadMore()} disabled={loadingMore}>
          {loadingMore ? 'Loading…' : 'Load more conversations'}
        </button>
      )}
    </>
  );
}

interface LineageEntryProps {
  lineage: SidebarLineageFragment;
  currentSessionId: string | null;
  unfolded: boolean;
  onToggle(): void;
  onOpen(): void;
}

function LineageEntry({ lineage, currentSessionId, unfolded, onToggle, onOpen }: LineageEntryProps) {
  const head = lineage.currentContinuation;
  const sessions = lineage.lineageTree.length;
  // Branched: some session was continued more than once.
  const predecessors = lineage.lineageTree.flatMap((node) => (node.edge ? [node.edge.predecessor.id] : []));
  const branched = new Set(predecessors).size < predecessors.length;
  const mapId = useId();
  const current = head.id === currentSessionId;

  return (
    <li className={current ? 'lineage-entry lineage-entry-current' : 'lineage-entry'}>
      <div className="lineage-entry-row">
        {sessions > 1 ? (
          <button
            type="button"
            className="lineage-fold"
            aria-expanded={unfolded}
            aria-controls={unfolded ? mapId : undefined}
            aria-label={`${unfolded ? 'Fold' : 'Unfold'} the ${sessions} sessions of “${head.title}”`}
            onClick={onToggle}
          >
            <span aria-hidden="true">{unfolded ? '▾' : '▸'}</span>
          </button>
        ) : (
          <span className="lineage-fold-space" aria-hidden="true" />
        )}
        <Link to={`/sessions/${head.id}`} className="lineage-entry-link" aria-current={current ? 'page' : undefined} onClick={onOpen}>
          <span className="lineage-entry-title">{head.title}</span>
          {sessions > 1 && (
            <span className="lineage-entry-meta">
              {sessions} sessions{branched && ', branched'}
            </span>
          )}
          <SessionActivityBadge session={head} />
        </Link>
      </div>
      {sessions > 1 && unfolded && (
        <div id={mapId} className="lineage-entry-map">
          <LineageMap
            nodes={lineage.lineageTree}
            headId={head.id}
            currentSessionId={currentSessionId}
            label={`Lineage map of “${head.title}”`}
            onOpen={onOpen}
          />
        </div>
      )}
    </li>
  );
}
