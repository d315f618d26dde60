import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { formatTime } from '../../app/format';
import { graphql } from '../../gql';
import type { SuccessorBannerFragment } from '../../gql/graphql';
import { transitionInWords } from './continuation-words';
import './continuation.css';

export const SuccessorBannerFragmentDocument = graphql(`
  fragment SuccessorBanner on ContinuationEdge {
    id
    reason
    actor
    createdAt
    predecessor {
      id
      title
    }
  }
`);

interface SuccessorBannerProps {
  edge: SuccessorBannerFragment;
  /** The tab moved here on its own: focus the banner so the move is announced, not silent. */
  arrivedByFollowing: boolean;
}

/** Opens a successor: where it came from, why and by whom, and the way back. */
export function SuccessorBanner({ edge, arrivedByFollowing }: SuccessorBannerProps) {
  const bannerRef = useRef<HTMLElement>(null);
  useEffect(() => {
    if (arrivedByFollowing) bannerRef.current?.focus();
  }, [arrivedByFollowing]);

  return (
    <aside
      className={`successor-banner successor-banner-${edge.reason.toLowerCase().replaceAll('_', '-')}`}
      aria-label="Continuation"
      tabIndex={-1}
      ref={bannerRef}
    >
      <p className="successor-banner-title">Continued from “{edge.predecessor.title}”</p>
      <p className="successor-banner-meta">
        <span>
          {transitionInWords(edge.reason, edge.actor)} · <time dateTime={edge.createdAt}>{formatTime(edge.createdAt)}</time>
        </span>
        <span className="successor-banner-links">
          <Link to={`/sessions/${edge.predecessor.id}`}>Back to previous</Link>
          <Link to={`/continuations/${edge.id}`}>View handoff</Link>
        </span>
      </p>
    </aside>
  );
}
