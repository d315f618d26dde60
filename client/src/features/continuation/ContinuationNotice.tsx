import { Link } from 'react-router';
import { transitionInWords } from './continuation-words';
import './continuation.css';

export interface ContinuedElsewhere {
  edgeId: string;
  successorId: string;
  successorTitle: string;
  /** Why and by whom, when the announcement said. */
  reason?: string;
  actor?: string;
}

interface ContinuationNoticeProps {
  continuation: ContinuedElsewhere;
  onDismiss(): void;
}

/** Tells a reader who was not following along where the conversation went, without moving them. */
export function ContinuationNotice({ continuation, onDismiss }: ContinuationNoticeProps) {
  return (
    <div className="notice notice-info continuation-notice" role="status">
      <p>
        This session was continued in “{continuation.successorTitle}”.{' '}
        {continuation.reason && `${transitionInWords(continuation.reason, continuation.actor)} `}
        <Link to={`/sessions/${continuation.successorId}`}>Open</Link>
      </p>
      <button type="button" className="button button-quiet" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}
