import { measureElement, observeElementRect, useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import type { TranscriptEventFragment } from '../../gql/graphql';
import type { CitedVia, SeqRange } from './cited-range';
import { AUTHOR_BY_KIND } from './event-authors';
import { TranscriptEvent } from './TranscriptEvent';

interface TranscriptProps {
  events: TranscriptEventFragment[];
  /** Events in the whole transcript, loaded or not: a screen reader says "item 5 of 1,000". */
  totalCount: number;
  hasOlder: boolean;
  loadingOlder: boolean;
  olderError: Error | null;
  onLoadOlder(): void;
  /** Events to highlight and scroll to: a cited source, a search hit or a replayed message's original. */
  citedRange: SeqRange | null;
  /** Whether the reader is at the live end of the transcript, each time that changes. */
  onFollowingChange(following: boolean): void;
  /** The answer being written, below the last event: it scrolls with the transcript. */
  liveAnswer?: ReactNode;
}

/** How close to the bottom (px) still counts as "following" the conversation. */
const FOLLOW_THRESHOLD = 80;
/** How long after the reader's wheel, touch, key or pointer a scroll counts as theirs. */
const GESTURE_MS = 1_000;
const SCROLL_KEYS = new Set(['ArrowUp', 'ArrowDown', 'PageUp', 'PageDown', 'Home', 'End', ' ']);
/** A first guess at an event's height, until it is measured. */
const ESTIMATED_EVENT_HEIGHT = 110;
/** Events rendered beyond each edge of the view, so a quick scroll does not show blanks. */
const OVERSCAN = 6;

const CITED_LABEL: Record<CitedVia, string> = {
  source: 'Cited source',
  search: 'Search hit',
  replay: 'Original message',
};

/** Taken for the view's height where there is no layout to measure (a hidden page, a test's DOM). */
const UNMEASURED_VIEW_HEIGHT = 1_000_000;

/** The scroller's size as the virtualiser observes it; without a layout, a view tall enough to render every event. */
function observeLaidOutRect(instance: Virtualizer<HTMLDivElement, Element>, report: (rect: { width: number; height: number }) => void) {
  return observeElementRect(instance, (rect) => report(rect.height > 0 ? rect : { width: rect.width, height: UNMEASURED_VIEW_HEIGHT }));
}

/** An event's measured height; without a layout (nothing measures more than 0), the estimate. */
const measureLaidOut: typeof measureElement = (element, entry, instance) => {
  const size = measureElement(element, entry, instance);
  return size > 0 ? size : ESTIMATED_EVENT_HEIGHT;
};

function isCited(seq: number, range: SeqRange | null): boolean {
  return range !== null && seq >= range.fromSeq && seq <= range.toSeq;
}

/**
 * Whether the reader follows the live end, and what keeps the end in view while they do: the end
 * stays in view whatever changes size (events measured, an answer growing, the footer below
 * taking more room), and the list's place within the scroller (below the "Load earlier" button)
 * is measured for the virtualiser. Content changing size moves the scroll by itself; only the
 * reader's own scrolling up, by wheel, touch, keys or the scrollbar, leaves the end. Reaching the
 * end again resumes following.
 */
function useFollowingLiveEnd(
  refs: { scroller: RefObject<HTMLDivElement | null>; content: RefObject<HTMLDivElement | null>; start: RefObject<HTMLDivElement | null>; list: RefObject<HTMLOListElement | null> },
  initiallyFollowing: boolean,
  onFollowingChange: (following: boolean) => void,
  lastId: string | undefined,
) {
  const following = useRef(initiallyFollowing);
  const [listOffset, setListOffset] = useState(0);
  const setFollowing = useCallback(
    (next: boolean) => {
      if (following.current !== next) onFollowingChange(next);
      following.current = next;
    },
    [onFollowingChange],
  );
  const { scroller: scrollerRef, content: contentRef, start: startRef, list: listRef } = refs;
  const toBottom = useCallback(() => {
    const scroller = scrollerRef.current;
    if (scroller) scroller.scrollTop = scroller.scrollHeight;
  }, [scrollerRef]);

  useEffect(() => {
    const scroller = scrollerRef.current;
    const content = contentRef.current;
    if (!scroller || !content || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (listRef.current) setListOffset(listRef.current.offsetTop);
      if (following.current) toBottom();
    });
    observer.observe(scroller);
    observer.observe(content);
    if (startRef.current) observer.observe(startRef.current);
    return () => observer.disconnect();
  }, [toBottom, scrollerRef, contentRef, startRef, listRef]);

  useLayoutEffect(() => {
    if (following.current) toBottom();
  }, [lastId, toBottom]);

  const lastScrollTop = useRef(0);
  const lastGesture = useRef(-Infinity);
  const noteGesture = () => {
    lastGesture.current = performance.now();
  };
  function recordScroll() {
    const scroller = scrollerRef.current;
    if (!scroller) return;
    const distanceToBottom = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight;
    const scrolledUp = scroller.scrollTop < lastScrollTop.current;
    lastScrollTop.current = scroller.scrollTop;
    if (distanceToBottom <= FOLLOW_THRESHOLD) setFollowing(true);
    else if (scrolledUp && performance.now() - lastGesture.current < GESTURE_MS) setFollowing(false);
  }
  return { listOffset, setFollowing, noteGesture, recordScroll };
}

/** Once the first cited event is loaded: brings it into view and moves focus there, once per range. */
function useScrollToCitedRange(
  scrollerRef: RefObject<HTMLDivElement | null>,
  virtualizer: Virtualizer<HTMLDivElement, Element>,
  events: TranscriptEventFragment[],
  citedRange: SeqRange | null,
  setFollowing: (following: boolean) => void,
) {
  const shownRange = useRef<string | null>(null);
  const rangeKey = citedRange && `${citedRange.fromSeq}-${citedRange.toSeq}`;
  const fromSeq = citedRange?.fromSeq;
  const citedIndex = fromSeq === undefined ? -1 : events.findIndex((event) => event.seq === fromSeq);
  useEffect(() => {
    if (!rangeKey || citedIndex < 0 || shownRange.current === rangeKey) return;
    shownRange.current = rangeKey;
    setFollowing(false);
    virtualizer.scrollToIndex(citedIndex, { align: 'start' });
    // The event renders once the scroll reaches it: focused then, and brought to the top of the view
    // again once the events around it have been measured and the scroll has settled.
    let frames = 0;
    let frame = 0;
    let focused = false;
    const focusWhenShown = () => {
      const item = scrollerRef.current?.querySelector<HTMLElement>(`[data-seq="${fromSeq}"]`);
      frames += 1;
      if (item && !focused) {
        item.focus({ preventScroll: true });
        focused = true;
      }
      if (item && (frames > 10 || typeof requestAnimationFrame === 'undefined')) item.scrollIntoView?.({ block: 'start' });
      else if (frames < 120 && typeof requestAnimationFrame !== 'undefined') frame = requestAnimationFrame(focusWhenShown);
    };
    focusWhenShown();
    return () => cancelAnimationFrame(frame);
  }, [rangeKey, citedIndex, fromSeq, setFollowing, virtualizer, scrollerRef]);
}

/** Loads the previous page when the start comes into view; re-observed after every page, so a page too short to fill the view loads the next one too. */
function useLoadOlderAtStart(
  scrollerRef: RefObject<HTMLDivElement | null>,
  startRef: RefObject<HTMLDivElement | null>,
  { hasOlder, loadingOlder, olderError, onLoadOlder }: Pick<TranscriptProps, 'hasOlder' | 'loadingOlder' | 'olderError' | 'onLoadOlder'>,
  firstSeq: number | undefined,
) {
  useEffect(() => {
    const scroller = scrollerRef.current;
    const start = startRef.current;
    if (!scroller || !start || !hasOlder || loadingOlder || olderError) return;
    if (typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) onLoadOlder();
      },
      { root: scroller },
    );
    observer.observe(start);
    return () => observer.disconnect();
  }, [hasOlder, loadingOlder, olderError, firstSeq, onLoadOlder, scrollerRef, startRef]);
}

/** Above the first event: the button loading earlier messages, or where the session starts. */
function TranscriptStart({ hasOlder, loadingOlder, olderError, onLoadOlder, empty }: Pick<TranscriptProps, 'hasOlder' | 'loadingOlder' | 'olderError' | 'onLoadOlder'> & { empty: boolean }) {
  return (
    <>
      {hasOlder ? (
        <button type="button" className="button button-quiet" onClick={onLoadOlder} disabled={loadingOlder}>
          {loadingOlder ? 'Loading earlier messages…' : 'Load earlier messages'}
        </button>
      ) : (
        !empty && <p className="hint">Start of the session</p>
      )}
      {olderError && (
        <p className="notice notice-error" role="alert">
          Earlier messages could not be loaded: {olderError.message}
        </p>
      )}
      {empty && <p className="empty-state">No messages yet. Write the first one below.</p>}
    </>
  );
}

/**
 * The transcript, oldest first, virtualised: only the events near the view are in the page, so
 * a transcript of thousands scrolls as lightly as one of ten. It opens at its end; scrolling to
 * the top loads the previous page and keeps the reader's place (the list is anchored to its
 * end). New events and the answer being written scroll into view only while the reader is at
 * the bottom. A cited range is scrolled to and focused once it is loaded, and the reader is then
 * no longer following.
 */
export function Transcript(props: TranscriptProps) {
  const { events, totalCount, citedRange, onFollowingChange, liveAnswer } = props;
  const scrollerRef = useRef<HTMLDivElement>(null);
  const contentRef = useRef<HTMLDivElement>(null);
  const startRef = useRef<HTMLDivElement>(null);
  const listRef = useRef<HTMLOListElement>(null);
  const { listOffset, setFollowing, noteGesture, recordScroll } = useFollowingLiveEnd(
    { scroller: scrollerRef, content: contentRef, start: startRef, list: listRef },
    citedRange === null,
    onFollowingChange,
    events.at(-1)?.id,
  );

  const virtualizer = useVirtualizer({
    count: events.length,
    getScrollElement: () => scrollerRef.current,
    estimateSize: () => ESTIMATED_EVENT_HEIGHT,
    getItemKey: (index) => events[index].id,
    // Older pages arrive above: the event in view stays where it is.
    anchorTo: 'end',
    overscan: OVERSCAN,
    scrollMargin: listOffset,
    observeElementRect: observeLaidOutRect,
    measureElement: measureLaidOut,
  });
  useScrollToCitedRange(scrollerRef, virtualizer, events, citedRange, setFollowing);
  useLoadOlderAtStart(scrollerRef, startRef, props, events[0]?.seq);

  const announcement = useNewEventAnnouncement(events);
  const items = virtualizer.getVirtualItems();

  return (
    // Focusable, so that a keyboard can scroll it.
    <div
      className="transcript"
      ref={scrollerRef}
      onScroll={recordScroll}
      onWheel={noteGesture}
      onTouchMove={noteGesture}
      onPointerDown={noteGesture}
      onKeyDown={(event) => {
        if (SCROLL_KEYS.has(event.key)) noteGesture();
      }}
      tabIndex={0}
    >
      <div className="transcript-content" ref={contentRef}>
        <div ref={startRef} className="transcript-start">
          <TranscriptStart {...props} empty={events.length === 0} />
        </div>
        {/*
          The log wraps the list, so the list keeps its own role and its items stay list items. It
          is not itself a live region: rendering the events scrolled into view would announce them
          again. New events are announced once, by the status below.
        */}
        <div role="log" aria-label="Transcript" aria-live="off">
          <ol className="transcript-events" ref={listRef} style={{ height: virtualizer.getTotalSize() }}>
            {items.map((item) => {
              const event = events[item.index];
              const cited = isCited(event.seq, citedRange);
              return (
                <li
                  key={item.key}
                  ref={virtualizer.measureElement}
                  data-index={item.index}
                  data-seq={event.seq}
                  aria-setsize={Math.max(totalCount, events.length)}
                  aria-posinset={event.seq}
                  className={cited ? 'transcript-item transcript-item-cited' : 'transcript-item'}
                  style={{ transform: `translateY(${item.start - listOffset}px)` }}
                  tabIndex={cited && event.seq === citedRange?.fromSeq ? -1 : undefined}
                >
                  {cited && <span className="cited-label">{CITED_LABEL[citedRange!.via]}</span>}
                  <TranscriptEvent event={event} />
                </li>
              );
            })}
          </ol>
        </div>
        {liveAnswer}
        <p className="visually-hidden" aria-live="polite">
          {announcement}
        </p>
      </div>
    </div>
  );
}

/** Says the newest event once it arrives (not the ones of the first page, nor older pages). */
function useNewEventAnnouncement(events: TranscriptEventFragment[]): string {
  const last = events.at(-1);
  const seen = useRef<number | null>(null);
  const [announcement, setAnnouncement] = useState('');
  useEffect(() => {
    if (!last) return;
    if (seen.current !== null && last.seq > seen.current && last.text) {
      setAnnouncement(`${AUTHOR_BY_KIND[last.kind]}: ${last.text.slice(0, 300)}`);
    }
    seen.current = Math.max(seen.current ?? 0, last.seq);
  }, [last]);
  return announcement;
}
