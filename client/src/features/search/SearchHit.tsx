import { graphql } from '../../gql';
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
