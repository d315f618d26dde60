import { formatDateTime } from '../../app/format';

interface ErasedEventProps {
  erasedAt: string;
  /** Why, as the erasure's receipt gives it; null when no receipt is at hand. */
  reason: string | null;
}

/** Where an erased event stood: its place in the transcript stays, its content does not. */
export function ErasedEvent({ erasedAt, reason }: ErasedEventProps) {
  return (
    <p className="erased-event">
      Erased on <time dateTime={erasedAt}>{formatDateTime(erasedAt)}</time>
      {reason ? `: ${reason}` : ''}
    </p>
  );
}
