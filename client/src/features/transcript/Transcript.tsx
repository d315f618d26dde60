import { useEffect, useLayoutEffect, useRef } from 'react';
import type { TranscriptEventFragment } from '../../gql/graphql';
import { TranscriptEvent } from './TranscriptEvent';

interface TranscriptProps {
  events: TranscriptEventFragment[];
  hasOlder: boolean;
  loadingOlder: boolean;
  olderError: Error | null;
  onLoadOlder(): void;
}

/** How close to the bottom (px) still counts as "following" the conversation. */
const FOLLOW_THRESHOLD = 80;

/**
 * The transcript, oldest first. Scrolling to the top loads the previous page and keeps the
 * reader's place; new events scroll into view only while the reader is at the bottom.
 */
export function Transcript({ events, hasOlder, loadingOlder, olderError, onLoadOlder }: TranscriptProps) {
  const scrollerRef = useRef<HTMLDivElement>(null);
  const topSentinelRef = useRef<HTMLDivElement>(null);
  const firstSeq = events[0]?.seq;
  const lastSeq = events.at(-1)?.seq;
  const layout = useRef({ firstSeq, lastSeq, scrollHeight: 0, scrollTop: 0, following: true });

  useLayoutEffect(() => {
    const scroller = scrollerRef.current;
    if (!scroller) return;
    const before = layout.current;
    if (before.firstSeq !== undefined && firstSeq !== undefined && firstSeq < before.firstSeq) {
      scroller.scrollTop = before.scrollTop + (scroller.scrollHeight - before.scrollHeight);
    } else if (before.following) {
      scroller.scrollTop = scroller.scrollHeight;
    }
    layout.current = { ...before, firstSeq, lastSeq, scrollHeight: scroller.scrollHeight, scrollTop: scroller.scrollTop };
  }, [firstSeq, lastSeq]);

  // Re-observed after every page, so a page too short to fill the view loads the next one too.
  useEffect(() => {
    const scroller = scrollerRef.current;
    const sentinel = topSentinelRef.current;
    if (!scroller || !sentinel || !hasOlder || loadingOlder || olderError) return;
    if (typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) onLoadOlder();
      },
      { root: scroller },
    );
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [hasOlder, loadingOlder, olderError, firstSeq, onLoadOlder]);

  function recordScroll() {
    const scroller = scrollerRef.current;
    if (!scroller) return;
    const distanceToBottom = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight;
    layout.current = {
      ...layout.current,
      scrollTop: scroller.scrollTop,
      scrollHeight: scroller.scrollHeight,
      following: distanceToBottom <= FOLLOW_THRESHOLD,
    };
  }

  return (
    <div className="transcript" ref={scrollerRef} onScroll={recordScroll}>
      <div ref={topSentinelRef} className="transcript-start">
        {hasOlder ? (
          <button type="button" className="button button-quiet" onClick={onLoadOlder} disabled={loadingOlder}>
            {loadingOlder ? 'Loading earlier messages…' : 'Load earlier messages'}
          </button>
        ) : (
          events.length > 0 && <p className="hint">Start of the session</p>
        )}
        {olderError && (
          <p className="notice notice-error" role="alert">
            Earlier messages could not be loaded: {olderError.message}
          </p>
        )}
      </div>
      {events.length === 0 ? (
        <p className="empty-state">No messages yet. Write the first one below.</p>
      ) : (
        <ol className="transcript-events" role="log" aria-label="Transcript" aria-live="polite">
          {events.map((event) => (
            <li key={event.id}>
              <TranscriptEvent event={event} />
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
