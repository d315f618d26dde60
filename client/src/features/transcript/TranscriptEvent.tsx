import { graphql } from '../../gql';
import type { EventKind, TranscriptEventFragment } from '../../gql/graphql';
import { formatTime } from '../../app/format';

export const TranscriptEventFragmentDocument = graphql(`
  fragment TranscriptEvent on Event {
    id
    seq
    kind
    text
    data
    toolCallId
    tokenCount
    createdAt
  }
`);

const AUTHOR_BY_KIND: Record<EventKind, string> = {
  USER_MESSAGE: 'You',
  ASSISTANT_MESSAGE: 'Assistant',
  TOOL_CALL: 'Tool call',
  TOOL_RESULT: 'Tool result',
  SYSTEM: 'System',
  CONTINUATION: 'Continuation',
};

export function TranscriptEvent({ event }: { event: TranscriptEventFragment }) {
  const hasPayload = event.data !== null && event.data !== undefined;
  return (
    <article className={`transcript-event transcript-event-${event.kind.toLowerCase().replaceAll('_', '-')}`}>
      <header className="transcript-event-meta">
        <span className="transcript-event-author">{AUTHOR_BY_KIND[event.kind]}</span>
        {event.toolCallId && <code className="transcript-event-tool-call">{event.toolCallId}</code>}
        <time dateTime={event.createdAt}>{formatTime(event.createdAt)}</time>
      </header>
      {event.text && <p className="transcript-event-text">{event.text}</p>}
      {hasPayload && <pre className="transcript-event-payload">{JSON.stringify(event.data, null, 2)}</pre>}
    </article>
  );
}
