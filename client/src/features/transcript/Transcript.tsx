import { useEffect, useLayoutEffect, useRef } from 'react';
import type { TranscriptEventFragment } from '../../gql/graphql';
import type { SeqRange } from './cited-range';
import { TranscriptEvent } from './TranscriptEvent';

interface TranscriptProps {
  events: TranscriptEventFragment[];
  hasOlder: boolean;
  loadingOlder: boolean;
  olderError: Error | null;
  onLoadOlder(): void;
  /** Events to highlight and scroll to: a source cited by a handoff or a replayed message. */
  citedRange: SeqRange | null;
  /** Whether the reader is at the live end of the transcript, each time that changes. */
  onFollowingChange(following: boolean): void;
}

/** How close to the bottom (px) still counts as "following" the conversation. */
const FOLLOW_THRESHOLD = 80;

function isCited(seq: number, range: SeqRange | null): boolean {
  return range !== null && seq >= range.fromSeq && seq <= range.toSeq;
}

/**
 * The transcript, oldest first. Scrolling to the top loads the previous page and keeps the
 * reader's place; new events scroll into view only while the reader is at the bottom. A cited
 * range is scrolled to once it is loaded, and the reader is then no longer following.
 */
export function Transcript({
  events,
  hasOlder,
  loadingOlder,
  olderError,
  onLoadOlder,
  citedRange,
  onFollowingChange,
}: TranscriptProps) {
  const scrollerRef = useRef<HTMLDivElement>(null);
  const topSentinelRef = useRef<HTMLDivElement>(null);
  const firstSeq = events[0]?.seq;
  const lastSeq = events.at(-1)?.seq;
  const layout = useRef({ firstSeq, lastSeq, scrollHeight: 0, scrollTop: 0, following: citedRange === null });
  const shownRange = useRef<string | null>(null);

  function setFollowing(following: boolean) {
    if (layout.current.following !== following) onFollowingChange(following);
    layout.current = { ...layout.current, following };
  }

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

  // Once the first cited event is loaded: bring it into view and move focus there, once per range.
  const rangeKey = citedRange && `${citedRange.fromSeq}-${citedRange.toSeq}`;
  const citedLoaded = citedRange !== null && events.some((event) => event.seq === citedRange.fromSeq);
  useEffect(() => {
    if (!rangeKey || !citedLoaded || shownRange.current === rangeKey) return;
    const first = scrollerRef.current?.querySelector<HTMLElement>('.transcript-item-cited');
    if (!first) return;
    shownRange.current = rangeKey;
    setFollowing(false);
    first.scrollIntoView?.({ block: 'start' });
    first.focus({ preventScroll: true });
  }, [rangeKey, citedLoaded]);

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
    layout.current = { ...layout.current, scrollTop: scroller.scrollTop, scrollHeight: scroller.scrollHeight };
    setFollowing(distanceToBottom <= FOLLOW_THRESHOLD);
  }

  return (
    // Focusable, so that a keyboard can scroll it.
    <div className="transcript" ref={scrollerRef} onScroll={recordScroll} tabIndex={0}>
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
        // The log wraps the list, so the list keeps its own role and its items stay list items.
        <div role="log" aria-label="Transcript" aria-live="polite">
          <ol className="transcript-events">
            {events.map((event) => {
              const cited = isCited(event.seq, citedRange);
              return (
                <li
                  key={event.id}
                  data-seq={event.seq}
                  className={cited ? 'transcript-item-cited' : undefined}
                  tabIndex={cited && event.seq === citedRange?.fromSeq ? -1 : undefined}
                >
                  {cited && <span className="cited-label">Cited source</span>}
                  <TranscriptEvent event={event} />
                </li>
              );
            })}
          </ol>
        </div>
      )}
    </div>
  );
}
