import { useQuery } from '@apollo/client/react';
import { useDeferredValue, useEffect, useId, useMemo, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useRegisteredCommands } from '../../app/commands';
import { formatDateTime } from '../../app/format';
import { ModalDialog } from '../../app/ModalDialog';
import type { PaletteRequest } from '../../app/shell/shell-context';
import type { EventSearchHitRowFragment, SearchScope } from '../../gql/graphql';
import { SIDEBAR_PAGE_SIZE, SidebarLineagesQuery } from '../sessions/useSidebarLineages';
import { SearchSnippet } from '../search/SearchHit';
import { useEventSearch } from '../search/useEventSearch';
import { eventRangeLink } from '../transcript/cited-range';
import { AUTHOR_BY_KIND } from '../transcript/event-authors';
import { matchesWords, queryWords } from './palette-matching';
import './palette.css';

/** A pause in typing this long searches the history; every keystroke would ask the server in vain. */
const SEARCH_DELAY_MS = 250;
/** Shorter queries match too much to be worth a search of the history. */
const MIN_SEARCH_CHARACTERS = 2;
const SESSIONS_SHOWN = 6;

const SCOPES: { scope: SearchScope; label: string; where: string }[] = [
  { scope: 'ACCOUNT', label: 'Everything', where: 'all sessions' },
  { scope: 'LINEAGE', label: 'This lineage', where: 'this lineage' },
  { scope: 'SESSION', label: 'This session', where: 'this session' },
];

interface Option {
  id: string;
  run(): void;
  content: ReactNode;
  /** What a screen reader says for it, when its content says too little or too much. */
  label?: string;
}

interface Group {
  id: string;
  title: string;
  options: Option[];
}

/** What the search finds after a pause in typing: null while the query is too short. */
function useDelayedQuery(query: string): string | null {
  const [settled, setSettled] = useState<string | null>(null);
  useEffect(() => {
    const trimmed = query.trim();
    if (trimmed.length < MIN_SEARCH_CHARACTERS) {
      setSettled(null);
      return;
    }
    const timer = window.setTimeout(() => setSettled(trimmed), SEARCH_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [query]);
  return settled;
}

/** Every session of the conversations the sidebar has loaded, with the lineage it belongs to. */
function useKnownSessions() {
  const { data } = useQuery(SidebarLineagesQuery, { variables: { first: SIDEBAR_PAGE_SIZE }, fetchPolicy: 'cache-only' });
  return useMemo(
    () =>
      (data?.sessions.edges ?? []).flatMap(({ node: lineage }) =>
        [...lineage.lineageTree]
          .sort((a, b) => b.session.createdAt.localeCompare(a.session.createdAt))
          .map(({ session }) => ({ ...session, headId: lineage.currentContinuation.id, lineageTitle: lineage.currentContinuation.title })),
      ),
    [data],
  );
}

interface CommandPaletteProps {
  request: PaletteRequest;
  onClose(): void;
}

/**
 * Ctrl/⌘+K: one field that finds conversations by title, messages in the history
 * (`searchEvents`, in the scope chosen) and commands of the page (new session, continue, open
 * the handoff), each opened or run with Enter. A combobox over a listbox: the arrows move the
 * choice, the focus stays in the field.
 */
export default function CommandPalette({ request, onClose }: CommandPaletteProps) {
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const [scope, setScope] = useState<SearchScope>(request.sessionId ? request.scope : 'ACCOUNT');
  const [active, setActive] = useState(0);
  const listboxId = useId();
  const scopeName = useId();
  const words = queryWords(useDeferredValue(query));
  const commands = useRegisteredCommands();
  const sessions = useKnownSessions();
  const searched = useDelayedQuery(query);
  const search = useEventSearch(
    searched === null ? null : { query: searched, scope, ...(scope !== 'ACCOUNT' && request.sessionId ? { sessionId: request.sessionId } : {}) },
  );

  function open(path: string) {
    onClose();
    void navigate(path);
  }

  // Commands and conversations show only when something matches; messages once a search ran.
  const groups = [
    commandsGroup(commands.filter((command) => matchesWords(`${command.label} ${command.keywords ?? ''}`, words)), onClose),
    sessionsGroup(sessions.filter((session) => matchesWords(session.title, words)).slice(0, SESSIONS_SHOWN), open),
  ].filter((group) => group.options.length > 0);
  if (searched !== null) groups.push(messagesGroup(searched, scope, search, open));
  const problem = searched === null ? null : searchProblem(search);

  const options = groups.flatMap((group) => group.options);
  const activeIndex = options.length === 0 ? -1 : Math.min(active, options.length - 1);
  const activeOption = activeIndex >= 0 ? options[activeIndex] : undefined;

  useEffect(() => {
    if (!activeOption) return;
    document.getElementById(optionId(listboxId, activeOption.id))?.scrollIntoView?.({ block: 'nearest' });
  }, [activeOption, listboxId]);

  function move(event: KeyboardEvent<HTMLInputElement>) {
    const step = { ArrowDown: 1, ArrowUp: -1 }[event.key];
    if (step !== undefined && options.length > 0) {
      event.preventDefault();
      setActive((activeIndex + step + options.length) % options.length);
    } else if (event.key === 'Enter' && activeOption) {
      event.preventDefault();
      activeOption.run();
    }
  }

  const where = SCOPES.find((choice) => choice.scope === scope)?.where ?? 'all sessions';
  return (
    <ModalDialog label="Command palette" className="palette" onClose={onClose}>
      <div className="palette-field">
        <input
          autoFocus
          type="text"
          role="combobox"
          aria-label="Search conversations and messages, or run a command"
          aria-expanded={true}
          aria-controls={listboxId}
          aria-autocomplete="list"
          aria-activedescendant={activeOption ? optionId(listboxId, activeOption.id) : undefined}
          placeholder="Search conversations and messages, or run a command…"
          maxLength={500}
          value={query}
          onChange={(event) => {
            setQuery(event.target.value);
            setActive(0);
          }}
          onKeyDown={move}
        />
      </div>
      {request.sessionId && (
        <fieldset className="palette-scope">
          <legend>Search messages in</legend>
          {SCOPES.map((choice) => (
            <label key={choice.scope} className={choice.scope === scope ? 'palette-scope-choice palette-scope-chosen' : 'palette-scope-choice'}>
              <input type="radio" name={scopeName} checked={choice.scope === scope} onChange={() => setScope(choice.scope)} />
              {choice.label}
            </label>
          ))}
        </fieldset>
      )}
      <PaletteResults listboxId={listboxId} groups={groups} activeOption={activeOption} onHover={(option) => setActive(options.indexOf(option))} />
      {problem}
      <p className="palette-status hint" aria-live="polite">
        {paletteStatus(query, searched, search, where)}
      </p>
    </ModalDialog>
  );
}

function commandsGroup(commands: ReturnType<typeof useRegisteredCommands>, onClose: () => void): Group {
  return {
    id: 'commands',
    title: 'Commands',
    options: commands.map((command) => ({
      id: `command-${command.id}`,
      run: () => {
        onClose();
        command.run();
      },
      content: (
        <>
          <span className="palette-option-title">{command.label}</span>
          {command.shortcut && <kbd className="shortcut">{command.shortcut}</kbd>}
        </>
      ),
      label: command.label,
    })),
  };
}

function sessionsGroup(sessions: ReturnType<typeof useKnownSessions>, open: (path: string) => void): Group {
  return {
    id: 'sessions',
    title: 'Conversations',
    options: sessions.map((session) => ({
      id: `session-${session.id}`,
      run: () => open(`/sessions/${session.id}`),
      content: (
        <>
          <span className="palette-option-title">{session.title}</span>
          <span className="palette-option-meta">
            {session.id === session.headId ? formatDateTime(session.createdAt) : `before “${session.lineageTitle}”`}
          </span>
        </>
      ),
    })),
  };
}

interface PaletteResultsProps {
  listboxId: string;
  groups: Group[];
  activeOption: Option | undefined;
  onHover(option: Option): void;
}

function PaletteResults({ listboxId, groups, activeOption, onHover }: PaletteResultsProps) {
  return (
    <div id={listboxId} role="listbox" aria-label="Results" className="palette-results">
      {groups.map((group) => (
        <div key={group.id} role="presentation" className="palette-group">
          <div id={`${listboxId}-${group.id}`} className="palette-group-title" aria-hidden="true">
            {group.title}
          </div>
          <div role="group" aria-labelledby={`${listboxId}-${group.id}`}>
            {group.options.map((option) => (
              <div
                key={option.id}
                id={optionId(listboxId, option.id)}
                role="option"
                aria-selected={option === activeOption}
                aria-label={option.label}
                className="palette-option"
                onClick={option.run}
                onMouseMove={() => onHover(option)}
              >
                {option.content}
              </div>
            ))}
          </div>
        </div>
      ))}
    </div>
  );
}

/** The polite line under the results: how to use the palette, or how many messages matched. */
function paletteStatus(query: string, searched: string | null, search: ReturnType<typeof useEventSearch>, where: string): string {
  if (searched !== null && !search.searching && !search.failure) {
    if (search.hits.length === 0) return `No messages match “${searched}” in ${where}.`;
    const matches = search.hasMore ? '+ messages match' : search.hits.length === 1 ? ' message matches' : ' messages match';
    return `${search.hits.length}${matches} “${searched}” in ${where}.`;
  }
  return query.trim() === '' ? 'Type to find a conversation or a message; ↑ ↓ to choose, Enter to open, Esc to close.' : '';
}

function optionId(listboxId: string, id: string): string {
  return `${listboxId}-option-${id}`;
}

function messagesGroup(
  query: string,
  scope: SearchScope,
  search: ReturnType<typeof useEventSearch>,
  open: (path: string) => void,
): Group {
  const options: Option[] = search.hits.map((hit) => ({
    id: `hit-${hit.event.id}`,
    run: () => open(eventRangeLink(hit.event.session.id, hit.event.id, hit.event.id, 'search')),
    content: <HitContent hit={hit} />,
  }));
  if (search.hasMore) {
    options.push({
      id: `more-${scope}-${query}`,
      run: () => void search.loadMore(),
      content: <span className="palette-option-title">{search.loadingMore ? 'Loading…' : 'More messages'}</span>,
    });
  }
  return { id: 'messages', title: 'Messages', options };
}

/** Beside the list, never in it: searching, or why nothing could be found. */
function searchProblem(search: ReturnType<typeof useEventSearch>): ReactNode {
  return search.searching ? (
    <p className="palette-group-status hint">Searching…</p>
  ) : search.failure ? (
    <p className="palette-group-status notice notice-error" role="alert">
      {search.failure.refused ? `The search was not run: ${search.failure.message} Reword it.` : `The search failed: ${search.failure.message}`}
    </p>
  ) : search.moreFailure ? (
    <p className="palette-group-status notice notice-error" role="alert">
      More messages could not be loaded: {search.moreFailure.message}
    </p>
  ) : null;
}

function HitContent({ hit }: { hit: EventSearchHitRowFragment }) {
  const { event, snippet, score } = hit;
  return (
    <>
      <span className="palette-hit-snippet">
        <SearchSnippet snippet={snippet} />
      </span>
      <span className="palette-option-meta">
        <span className="palette-hit-session">{event.session.title}</span>
        <span>event {event.seq}</span>
        <span>{AUTHOR_BY_KIND[event.kind]}</span>
        <time dateTime={event.createdAt}>{formatDateTime(event.createdAt)}</time>
        {/* Comparable only within one result, so a rank hint rather than a headline. */}
        <span className="palette-hit-score" title="Relevance within these results; higher is better">
          score {score.toFixed(2)}
        </span>
      </span>
    </>
  );
}
