import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { formatTime } from '../../app/format';
import { graphql } from '../../gql';
import type { TranscriptEventFragment } from '../../gql/graphql';
import { readProposalNote, readSuccessorBanner, readTransitionCard } from '../continuation/continuation-events';
import { TransitionCard } from '../continuation/TransitionCard';
import { Markdown } from '../markdown/Markdown';
import { AttachmentList } from '../attachments/AttachmentList';
import { eventRangeLink } from './cited-range';
import { AUTHOR_BY_KIND } from './event-authors';
import { ErasedEvent } from '../lifecycle/ErasedEvent';

// Only sessions that ask before continuing have proposals: their card and its form load then.
const ProposalCard = lazy(() => import('../continuation/ProposalCard').then((module) => ({ default: module.ProposalCard })));

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
    erasedAt
    erasure {
      id
      reason
    }
  }
`);

export function TranscriptEvent({ event }: { event: TranscriptEventFragment }) {
  if (event.erasedAt) return <ErasedEvent erasedAt={event.erasedAt} reason={event.erasure?.reason ?? null} />;
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
    if (proposal) {
      return (
        <Suspense
          fallback={
            <p className="proposal-card proposal-card-state" role="status">
              Loading the proposal…
            </p>
          }
        >
          <ProposalCard proposalId={proposal.proposalId} />
        </Suspense>
      );
    }
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
      {event.text &&
        (answer ? (
          <Markdown className="transcript-event-text transcript-event-markdown" text={event.text} />
        ) : (
          <p className="transcript-event-text">{event.text}</p>
        ))}
      <AttachmentList attachments={event.attachments} />
      {stopped && <p className="transcript-event-stopped">Stopped before it finished.</p>}
      {hasPayload && <pre className="transcript-event-payload">{JSON.stringify(event.data, null, 2)}</pre>}
      {event.replayOf && (
        <p className="transcript-event-provenance">
          Replayed exactly{' '}
          <Link to={eventRangeLink(event.replayOf.session.id, event.replayOf.id, event.replayOf.id, 'replay')}>
            from “{event.replayOf.session.title}”
          </Link>
        </p>
      )}
    </article>
  );
}
