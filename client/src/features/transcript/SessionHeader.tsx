import type { ReactNode } from 'react';
import { formatCount, formatDateTime } from '../../app/format';
import { MenuButton } from '../../app/MenuButton';
import { SidebarToggle } from '../../app/shell/SidebarToggle';
import type { SessionLineageQuery, SessionTranscriptQuery } from '../../gql/graphql';
import { LineageBreadcrumb } from '../lineage/LineageBreadcrumb';
import { LineageMap } from '../lineage/LineageMap';

type Session = NonNullable<SessionTranscriptQuery['session']>;
type Lineage = NonNullable<SessionLineageQuery['session']>;

/** Status, kind, size and age of a session; the token count labelled as the transcript's own. */
function SessionFacts({ session, all }: { session: Session; all: boolean }) {
  return (
    <p className="session-facts">
      {(all || session.status !== 'ACTIVE') && (
        <span className={`badge badge-${session.status.toLowerCase()}`}>{session.status.toLowerCase()}</span>
      )}
      {all && <span>{session.kind.toLowerCase()}</span>}
      <span>{formatCount(session.eventCount, 'event')}</span>
      <span>Transcript: {formatCount(session.tokenCount, 'token')}</span>
      {all && (
        <span>
          started <time dateTime={session.createdAt}>{formatDateTime(session.createdAt)}</time>
        </span>
      )}
    </p>
  );
}

interface SessionHeaderProps {
  session: Session;
  lineage: Lineage | null;
  /** The menu's actions and settings; `close` puts the menu away once one is chosen. */
  menu(close: () => void): ReactNode;
}

/**
 * The top of a conversation, kept to two lines so the transcript has the room: its title, the
 * path of its lineage (or, without one, its size), and one menu for the rest.
 */
export function SessionHeader({ session, lineage, menu }: SessionHeaderProps) {
  const hasPath = (lineage?.lineage.length ?? 0) > 1;
  return (
    <header className="session-header">
      <SidebarToggle />
      <div className="session-heading">
        <h1 title={session.title}>{session.title}</h1>
        {hasPath && lineage ? <LineageBreadcrumb session={lineage} /> : <SessionFacts session={session} all={false} />}
      </div>
      <MenuButton label="Session menu">
        {(close) => (
          <>
            <section aria-label="About this session" className="menu-section">
              {session.description && <p className="session-description">{session.description}</p>}
              <SessionFacts session={session} all />
            </section>
            {menu(close)}
            {lineage && lineage.lineageTree.length > 1 && (
              <section aria-label="Lineage map" className="menu-section">
                <h2 className="menu-heading">Lineage map · {formatCount(lineage.lineageTree.length, 'session')}</h2>
                <LineageMap
                  nodes={lineage.lineageTree}
                  headId={lineage.origin.currentContinuation.id}
                  currentSessionId={session.id}
                  label={`Lineage map of “${lineage.origin.title}”`}
                  onOpen={close}
                />
              </section>
            )}
          </>
        )}
      </MenuButton>
    </header>
  );
}
