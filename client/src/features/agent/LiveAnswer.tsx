import { useDeferredValue, useState } from 'react';
import type { RunStateFragment } from '../../gql/graphql';
import { Markdown } from '../markdown/Markdown';
import { useRunOutput } from './useRunOutput';

/** The transcript's newest event, as far as the live answer needs it. */
interface LastEvent {
  seq: number;
  kind: string;
  text?: string | null;
}

/**
 * The answer is in the transcript now: its newest event is an answer written after `afterSeq`
 * (the message being answered) that ends as the streamed text does. Text streamed after it (a
 * turn that goes on past a tool call) shows again.
 */
function answerLanded(streamed: string, last: LastEvent | undefined, afterSeq: number): boolean {
  if (!last || last.kind !== 'ASSISTANT_MESSAGE' || !last.text || last.seq <= afterSeq) return false;
  return last.text.trimEnd().endsWith(streamed.trimEnd().slice(-80));
}

interface LiveAnswerProps {
  currentTurn: RunStateFragment | null;
  lastEvent: LastEvent | undefined;
  /** The seq of the message the turn answers. */
  answeringSeq: number;
}

/**
 * A running turn's answer as it is produced, at the end of the transcript, until the answer
 * itself arrives there (which may be just after the run settles: the text stays until then). It
 * is not a live region: the transcript announces the answer once, finished.
 */
export function LiveAnswer({ currentTurn, lastEvent, answeringSeq }: LiveAnswerProps) {
  // The run this page saw running; a turn that had finished before the page opened streams nothing.
  const [watched, setWatched] = useState<string | null>(null);
  if (currentTurn?.status === 'RUNNING' && watched !== currentTurn.id) setWatched(currentTurn.id);
  const streamed = useRunOutput(watched);
  // Rendering Markdown for every piece would fall behind a fast stream: React skips to the latest.
  // The deferred text lags a render behind: when the next turn starts it is still the last one's
  // answer, which must not show as the new one's, so the run it belongs to is deferred with it.
  const shown = useDeferredValue(streamed);
  const shownRun = useDeferredValue(watched);
  const answering = currentTurn?.id === watched && currentTurn !== null && ['RUNNING', 'SUCCEEDED', 'CANCELLED'].includes(currentTurn.status);
  if (!answering || shownRun !== watched || !shown || answerLanded(shown, lastEvent, answeringSeq)) return null;
  return (
    <section className="live-answer transcript-event transcript-event-assistant-message" aria-label="The answer so far" aria-busy="true">
      <header className="transcript-event-meta">
        <span className="transcript-event-author">Assistant</span>
        <span>writing…</span>
      </header>
      <Markdown className="transcript-event-text transcript-event-markdown" text={shown} />
    </section>
  );
}
