import { Link } from 'react-router';
import { formatTime } from '../../app/format';
import { graphql } from '../../gql';
import type { EventKind, TranscriptEventFragment } from '../../gql/graphql';
import { readProposalNote, readSuccessorBanner, readTransitionCard } from '../continuation/continuation-events';
import { ProposalCard } from '../continuation/ProposalCard';
import { TransitionCard } from '../continuation/TransitionCard';
import { Markdown } from '../markdown/Markdown';
import { AttachmentList } from '../attachments/AttachmentList';
import { eventRangeLink } from './cited-range';

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
    attachments {
      cid
      name
      mediaType
      byteSize
      url
    }
    replayOf {
      id
      session {
        id
        title
      }
    }
  }
`);

/** Who wrote an event of each kind, as the transcript and search hits name them. */
export const AUTHOR_BY_KIND: Record<EventKind, string> = {
  USER_MESSAGE: 'You',
  ASSISTANT_MESSAGE: 'Assistant',
  TOOL_CALL: 'Tool call',
  TOOL_RESULT: 'Tool result',
  SYSTEM: 'System',
  CONTINUATION: 'Continuation',
};

export function TranscriptEvent({ event }: { event: TranscriptEventFragment }) {
  if (event.kind === 'CONTINUATION') {
    const card = readTransitionCard(event.data);
    if (card) return <TransitionCard card={card} createdAt={event.createdAt} />;
    const banner = readSuccessorBanner(event.data);
    // The page's banner carries the actions; in the transcript this only marks where the session begins.
    if (banner) {
      return (
        <p className="successor-start">
          This session begins here, continuing “{banner.predecessorTitle}”{' · '}
          <time dateTime={event.createdAt}>{formatTime(event.createdAt)}</time>
        </p>
      );
    }
  }

  if (event.kind === 'SYSTEM') {
    const proposal = readProposalNote(event.data);
    if (proposal) return <ProposalCard proposalId={proposal.proposalId} />;
  }

  const answer = event.kind === 'ASSISTANT_MESSAGE';
  const stopped = answer && (event.data as { cancelled?: unknown } | null)?.cancelled === true;
  // An answer's only payload is the mark that it was stopped, shown in words instead.
  const hasPayload = event.data !== null && event.data !== undefined && !stopped;
  return (
    <article className={`transcript-event transcript-event-${event.kind.toLowerCase().replaceAll('_', '-')}`}>
      <header className="transcript-event-meta">
        <span className="transcript-event-author">{AUTHOR_BY_KIND[event.kind]}</span>
        {event.toolCallId && <code className="transcript-event-tool-call">{event.toolCallId}</code>}
        <time dateTime={event.createdAt}>{formatTime(event.createdAt)}</time>
      </header>
      {event.text && (answer ? <Markdown className="transcript-event-text transcript-event-markdown" text={event.text} /> : <p className="transcript-event-text">{event.text}</p>)}
      <AttachmentList attachments={event.attachments} />
      {stopped && <p className="transcript-event-stopped">Stopped before it finished.</p>}
      {hasPayload && <pre className="transcript-event-payload">{JSON.stringify(event.data, null, 2)}</pre>}
      {event.replayOf && (
        <p className="transcript-event-provenance">
          Replayed exactly{' '}
          <Link to={eventRangeLink(event.replayOf.session.id, event.replayOf.id, event.replayOf.id)}>
            from “{event.replayOf.session.title}”
          </Link>
        </p>
      )}
    </article>
  );
}
