import { Link } from 'react-router';
import { formatDateTime } from '../../app/format';
import { graphql } from '../../gql';
import type { EventSearchHitRowFragment } from '../../gql/graphql';
import { eventRangeLink } from '../transcript/cited-range';
import { AUTHOR_BY_KIND } from '../transcript/TranscriptEvent';
import { snippetParts } from './search-snippet';

export const EventSearchHitRowFragmentDocument = graphql(`
  fragment EventSearchHitRow on EventSearchHit {
    score
    snippet
    event {
      id
      seq
      kind
      createdAt
      session {
        id
        title
      }
    }
  }
`);

/** The snippet's matched terms as `<mark>` elements, everything else as text. */
export function SearchSnippet({ snippet }: { snippet: string }) {
  return (
    <>
      {snippetParts(snippet).map((part, index) =>
        part.marked ? <mark key={index}>{part.text}</mark> : <span key={index}>{part.text}</span>,
      )}
    </>
  );
}

interface SearchHitListProps {
  hits: EventSearchHitRowFragment[];
  /** Called as a hit opens, e.g. to put the results away. */
  onOpen(): void;
}

/** Hits in rank order; each opens its exact event in its session, highlighted. */
export function SearchHitList({ hits, onOpen }: SearchHitListProps) {
  return (
    <ol className="search-hits">
      {hits.map(({ event, snippet, score }) => (
        <li key={event.id}>
          <Link to={eventRangeLink(event.session.id, event.id, event.id)} className="search-hit" onClick={onOpen}>
            <span className="search-hit-meta">
              <span className="search-hit-session">{event.session.title}</span>
              <span>event {event.seq}</span>
              <span>{AUTHOR_BY_KIND[event.kind]}</span>
              <time dateTime={event.createdAt}>{formatDateTime(event.createdAt)}</time>
              {/* Comparable only within one result, so shown as a rank hint rather than a headline. */}
              <span className="search-hit-score" title="Relevance within these results; higher is better">
                score {score.toFixed(2)}
              </span>
            </span>
            <span className="search-hit-snippet">
              <SearchSnippet snippet={snippet} />
            </span>
          </Link>
        </li>
      ))}
    </ol>
  );
}
