import { Link } from 'react-router';
import { formatTime } from '../../app/format';
import type { TransitionCardData } from './continuation-events';
import { reasonInWords } from './continuation-words';
import './continuation.css';

interface TransitionCardProps {
  card: TransitionCardData;
  /** When the predecessor was continued (the card event's time). */
  createdAt: string;
}

/** The durable end of a predecessor: where the conversation went, why, and what it carried. */
export function TransitionCard({ card, createdAt }: TransitionCardProps) {
  const title = `Continued in “${card.successorTitle}”`;
  return (
    <article className="transition-card" aria-label={title}>
      <p className="transition-card-title">{title}</p>
      <p className="transition-card-meta">
        {reasonInWords(card.reason)} · <time dateTime={createdAt}>{formatTime(createdAt)}</time>
      </p>
      <p className="transition-card-carried">Carried {card.carried}.</p>
      <p className="continuation-actions">
        <Link to={`/sessions/${card.successorId}`} className="button button-primary">
          Open continuation
        </Link>
        <Link to={`/continuations/${card.edgeId}`} className="button">
          Inspect handoff
        </Link>
      </p>
    </article>
  );
}
