import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { formatCount } from '../../app/format';
import type { SearchScope } from '../../gql/graphql';
import { SearchHitList } from './SearchHitList';
import { useEventSearch, type EventSearchRequest } from './useEventSearch';
import './search.css';

const SCOPE_CHOICES: { scope: SearchScope; label: string; where: string }[] = [
  { scope: 'SESSION', label: 'This session', where: 'this session' },
  { scope: 'LINEAGE', label: 'This lineage', where: 'this lineage' },
  { scope: 'ACCOUNT', label: 'Everything', where: 'all sessions' },
];

function whereOf(scope: SearchScope): string {
  return SCOPE_CHOICES.find((choice) => choice.scope === scope)?.where ?? 'all sessions';
}

interface EventSearchProps {
  /** The session searches start from; without one, only the whole account is searched. */
  sessionId?: string;
}

/**
 * A search box over event text: ranked hits with their snippets, each opening its exact event.
 * With a session it offers this session, its lineage or everything; without, everything.
 */
export function EventSearch({ sessionId }: EventSearchProps) {
  const id = useId();
  const [text, setText] = useState('');
  // The server's own default when a session is given: a conversation is its whole lineage.
  const [scope, setScope] = useState<SearchScope>(sessionId ? 'LINEAGE' : 'ACCOUNT');
  const [submitted, setSubmitted] = useState<string | null>(null);
  const [emptyAttempt, setEmptyAttempt] = useState(false);

  const request: EventSearchRequest | null =
    submitted === null ? null : { query: submitted, scope, ...(scope !== 'ACCOUNT' && sessionId ? { sessionId } : {}) };

  function search(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const query = text.trim();
    // The server refuses an empty query; there is nothing to ask it.
    setEmptyAttempt(query === '');
    setSubmitted(query === '' ? null : query);
  }

  function closeOnEscape(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === 'Escape' && submitted !== null) {
      event.stopPropagation();
      setSubmitted(null);
    }
  }

  return (
    <div className="event-search" onKeyDown={closeOnEscape}>
      <form
        role="search"
        aria-label={sessionId ? 'Search this conversation' : 'Search all sessions'}
        className="event-search-form"
        onSubmit={search}
      >
        <label htmlFor={`${id}-query`}>Search</label>
        <input
          id={`${id}-query`}
          type="search"
          maxLength={500}
          placeholder={'words, "a phrase", -excluded'}
          aria-invalid={emptyAttempt || undefined}
          aria-describedby={emptyAttempt ? `${id}-empty` : undefined}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            setEmptyAttempt(false);
          }}
        />
        {sessionId && (
          <span className="event-search-scope">
            <label htmlFor={`${id}-scope`}>in</label>
            <select
              id={`${id}-scope`}
              aria-label="Search in"
              value={scope}               onChange={(event) => setScope(event.target.value as SearchScope)}
            >
              {SCOPE_CHOICES.map((choice) => (
                <option key={choice.scope} value={choice.scope}>
                  {choice.label}
                </option>
              ))}
            </select>
          </span>
        )}
        <button type="submit" className="button">
          Search
        </button>
      </form>
      {emptyAttempt && (
        <p id={`${id}-empty`} className="hint event-search-problem" role="alert">
          Type what to look for first.
        </p>
      )}
      {request && <SearchResults request={request} onClose={() => setSubmitted(null)} />}
    </div>
  );
}

function SearchResults({ request, onClose }: { request: EventSearchRequest; onClose(): void }) {
  const titleId = useId();
  const { hits, searching, failure, hasMore, loadingMore, moreFailure, loadMore } = useEventSearch(request);
  const where = whereOf(request.scope);
  // No total: counting every match of a large account costs more than finding its best ones.
  const summary = searching
    ? 'Searching…'
    : failure
      ? ''
      : hits.length === 0
        ? `No events match “${request.query}” in ${where}.`
        : `Showing ${hasMore ? 'the best ' : ''}${formatCount(hits.length, 'hit')} for “${request.query}” in ${where}${hasMore ? '; more below' : ''}.`;

  return (
    <section className="search-results" aria-labelledby={titleId} aria-busy={searching}>
      <div className="search-results-header">
        <h2 id={titleId}>Search results</h2>
        <button type="button" className="button button-quiet" onClick={onClose}>
          Close results
        </button>
      </div>
      {/* Always rendered: screen readers announce changes inside a live region, not one that appears with them. */}
      <p className="hint" aria-live="polite">
        {summary}
      </p>
      {failure && (
        <p className="notice notice-error" role="alert">
          {failure.refused
            ? `The search was not run: ${failure.message} Reword it and search again.`
            : `The search failed: ${failure.message}`}
        </p>
      )}
      {hits.length > 0 && <SearchHitList hits={hits} onOpen={onClose} />}
      {moreFailure && (
        <p className="notice notice-error" role="alert">
          More results could not be loaded: {moreFailure.message}
        </p>
      )}
      {hasMore && (
        <button type="button" className="button load-more" onClick={() => void loadMore()} disabled={loadingMore}>
          {loadingMore ? 'Loading…' : 'More results'}
        </button>
      )}
    </section>
  );
}
