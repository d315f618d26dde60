import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { useCommands, type Command } from '../../app/commands';
import { useShell } from '../../app/shell/shell-context';
import { MissingPage } from '../../app/shell/MissingPage';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import { AgentActivity } from '../agent/AgentActivity';
import { LiveAnswer } from '../agent/LiveAnswer';
import { useAgentActivity } from '../agent/useAgentActivity';
import { ApprovalToggle } from '../continuation/ApprovalToggle';
import { ContinuationNotice } from '../continuation/ContinuationNotice';
import { ContinueSessionDialog, type ContinueSessionHandle } from '../continuation/ContinueSessionDialog';
import { ProposalFollowContext } from '../continuation/proposal-follow';
import { SuccessorBanner } from '../continuation/SuccessorBanner';
import { isFollowedState, useContinuationFollower } from '../continuation/useContinuationFollower';
import { useProposalUpdates } from '../continuation/useContinuationProposal';
import { useSessionLineage } from '../lineage/useSessionLineage';
import { useLifecycleActions } from '../lifecycle/useLifecycleActions';
import { ShareSessionDialog } from '../keys/ShareSessionDialog';
import { citedEventIds, useCitedRange, type CitedRange } from './cited-range';
import { Composer } from './Composer';
import { SessionHeader } from './SessionHeader';
import { Transcript } from './Transcript';
import { useLiveTranscript } from './useLiveTranscript';
import { useSessionTranscript } from './useSessionTranscript';
import './transcript.css';

/** The route `/sessions/:sessionId`, optionally `?from=<event id>&to=<event id>` to show a cited range. */
export function SessionRoute() {
  const { sessionId } = useParams();
  // A new key remounts the page, so one session's scroll position never leaks into another.
  return sessionId ? <SessionPage key={sessionId} sessionId={sessionId} /> : null;
}

const CITED_AS: Record<string, string> = { source: 'a cited source', search: 'a search hit', replay: 'the original of a replayed message' };

export function SessionPage({ sessionId }: { sessionId: string }) {
  const [search] = useSearchParams();
  const location = useLocation();
  const cited = useMemo(() => citedEventIds(search), [search]);
  const citedRange = useCitedRange(sessionId, cited);
  const transcript = useSessionTranscript(sessionId);
  const { session, events, hasOlder, loadingOlder, olderError, loadOlder } = transcript;
  const live = useLiveTranscript(sessionId, session ? (events.at(-1)?.seq ?? 0) : null);
  const { lineage, error: lineageError } = useSessionLineage(sessionId);
  const agent = useAgentActivity(sessionId, session?.status === 'ACTIVE');

  const { isFollowingTranscript, onFollowingChange } = useFollowingTranscript(cited === null, live.error);
  const follower = useContinuationFollower(sessionId, isFollowingTranscript, transcript.fetched ? events : null);
  useProposalUpdates(sessionId);
  const continueAction = useRef<ContinueSessionHandle>(null);
  const openContinueDialog = useCallback(() => continueAction.current?.open(), []);
  useDocumentTitle(session?.title);

  usePageBackToCitedRange(transcript, citedRange);

  const latestUserMessage = events.findLast((event) => event.kind === 'USER_MESSAGE');
  // The dialog's default current request; without one there is nothing to continue yet.
  const requestToContinue = session?.status === 'ACTIVE' && !session.erasedAt ? latestUserMessage?.text : undefined;
  const continuedFrom = lineage?.continuedFrom ?? null;
  const latestContinuation = lineage?.continuations[0] ?? null;

  useSessionCommands({ sessionId, requestToContinue, openContinueDialog, continuedFrom, latestContinuation });
  const [sharing, setSharing] = useState(false);
  const lifecycle = useLifecycleActions(session ?? null, lineage ? lineage.lineageTree.map((node) => node.session.title) : session ? [session.title] : []);

  if (transcript.loading) {
    return (
      <p className="page-state" role="status">
        Loading session…
      </p>
    );
  }
  if (!session) return <MissingPage notFound="Session not found" failed="The session could not be loaded" error={transcript.error} />;

  const liveError = live.error ?? follower.error;
  const lastEvent = events.at(-1);

  return (
    <div className="session-page">
      <SessionHeader
        session={session}
        lineage={lineage}
        menu={(close) => (
          <SessionMenu
            session={session}
            close={close}
            onContinue={requestToContinue ? openContinueDialog : undefined}
            continuedFromId={continuedFrom?.id}
            onShare={() => setSharing(true)}
            lifecycleItems={lifecycle.menu(close)}
          />
        )}
      />
      {lifecycle.overlay}
      {sharing && <ShareSessionDialog session={session} onClose={() => setSharing(false)} />}
      <SessionNotices
        sessionId={session.id}
        continuedFrom={continuedFrom}
        arrivedByFollowing={isFollowedState(location.state) && location.state.followedContinuation === continuedFrom?.id}
        lineageError={lineage ? undefined : lineageError}
        follower={follower}
        liveError={liveError}
        citedRange={citedRange}
      />
      <ProposalFollowContext.Provider value={follower.initiation}>
        <Transcript
          events={events}
          totalCount={session.eventCount}
          hasOlder={hasOlder}
          loadingOlder={loadingOlder}
          olderError={olderError}
          onLoadOlder={loadOlder}
          citedRange={citedRange.status === 'found' ? citedRange.range : null}
          onFollowingChange={onFollowingChange}
          liveAnswer={
            session.status === 'ACTIVE' && (
              <LiveAnswer currentTurn={agent.currentTurn} lastEvent={lastEvent} answeringSeq={latestUserMessage?.seq ?? 0} />
            )
          }
        />
      </ProposalFollowContext.Provider>
      <div className="session-footer">
        {session.status === 'ACTIVE' && <AgentActivity activity={agent} onContinue={requestToContinue ? openContinueDialog : undefined} />}
        <SessionComposer erased={Boolean(session.erasedAt)} session={session} currentContinuation={lineage?.currentContinuation ?? null} initiation={follower.initiation} />
      </div>
      {requestToContinue && (
        <ContinueSessionDialog ref={continueAction} session={session} latestUserMessage={requestToContinue} initiation={follower.initiation} />
      )}
    </div>
  );
}

type SessionTranscript = ReturnType<typeof useSessionTranscript>;
type LoadedSession = NonNullable<SessionTranscript['session']>;
type SessionLineage = NonNullable<ReturnType<typeof useSessionLineage>['lineage']>;

/** Pages back through the transcript until the cited range's first event is loaded. */
/**
 * Whether the reader follows the transcript's live end (and live updates arrive), read when a
 * continuation is announced; kept in refs so that scrolling does not re-render the page.
 */
function useFollowingTranscript(initially: boolean, liveError: Error | undefined) {
  const atLiveEnd = useRef(initially);
  const liveFailed = useRef(false);
  useEffect(() => {
    liveFailed.current = liveError !== undefined;
  }, [liveError]);
  const isFollowingTranscript = useCallback(() => atLiveEnd.current && !liveFailed.current, []);
  const onFollowingChange = useCallback((following: boolean) => {
    atLiveEnd.current = following;
  }, []);
  return { isFollowingTranscript, onFollowingChange };
}

function usePageBackToCitedRange({ events, hasOlder, loadingOlder, olderError, loadOlder }: SessionTranscript, citedRange: CitedRange) {
  const firstLoadedSeq = events[0]?.seq;
  const citedFromSeq = citedRange.status === 'found' ? citedRange.range.fromSeq : null;
  useEffect(() => {
    if (citedFromSeq === null || firstLoadedSeq === undefined || firstLoadedSeq <= citedFromSeq) return;
    if (hasOlder && !loadingOlder && !olderError) void loadOlder();
  }, [citedFromSeq, firstLoadedSeq, hasOlder, loadingOlder, olderError, loadOlder]);
}

interface SessionCommandsInput {
  sessionId: string;
  requestToContinue: string | null | undefined;
  openContinueDialog(): void;
  continuedFrom: SessionLineage['continuedFrom'];
  latestContinuation: SessionLineage['continuations'][number] | null;
}

/** The page's commands in the palette: continue, open either handoff, search the conversation. */
function useSessionCommands({ sessionId, requestToContinue, openContinueDialog, continuedFrom, latestContinuation }: SessionCommandsInput) {
  const navigate = useNavigate();
  const shell = useShell();
  const commands = useMemo<Command[]>(() => {
    const offered: Command[] = [];
    if (requestToContinue) {
      offered.push({ id: 'continue', label: 'Continue in new session', keywords: 'handoff successor fresh', run: openContinueDialog });
    }
    if (continuedFrom) {
      offered.push({
        id: 'open-handoff',
        label: `Open the handoff from “${continuedFrom.predecessor.title}”`,
        keywords: 'handoff inspector manifest',
        run: () => void navigate(`/continuations/${continuedFrom.id}`),
      });
    }
    if (latestContinuation) {
      offered.push({
        id: 'open-next-handoff',
        label: `Open the handoff to “${latestContinuation.successor.title}”`,
        keywords: 'handoff inspector manifest',
        run: () => void navigate(`/continuations/${latestContinuation.id}`),
      });
    }
    if (shell) {
      offered.push({
        id: 'search-lineage',
        label: 'Search this conversation',
        keywords: 'find history lineage',
        run: () => shell.openPalette({ scope: 'LINEAGE', sessionId }),
      });
    }
    return offered;
  }, [requestToContinue, openContinueDialog, continuedFrom, latestContinuation, navigate, shell, sessionId]);
  useCommands(commands);
}

/** The composer, or why an erased session takes no more messages. */
function SessionComposer({ erased, ...props }: Parameters<typeof Composer>[0] & { erased: boolean }) {
  if (erased) {
    return (
      <p className="notice" role="status">
        This session was erased: it takes no more messages.
      </p>
    );
  }
  return <Composer {...props} />;
}


interface SessionMenuProps {
  session: LoadedSession;
  close(): void;
  onContinue?: () => void;
  continuedFromId?: string;
  onShare(): void;
  lifecycleItems: ReactNode;
}

/** The header's one menu: approval, continue, search, the handoff, share, export and delete. */
function SessionMenu({ session, close, onContinue, continuedFromId, onShare, lifecycleItems }: SessionMenuProps) {
  const shell = useShell();
  const closeThen = (action: () => void) => () => {
    close();
    action();
  };
  return (
    <>
      {session.status === 'ACTIVE' && <ApprovalToggle sessionId={session.id} approval={session.continuationApproval} />}
      {onContinue && (
        <button type="button" className="menu-item" onClick={closeThen(onContinue)}>
          Continue in new session
        </button>
      )}
      {shell && (
        <button type="button" className="menu-item" onClick={closeThen(() => shell.openPalette({ scope: 'LINEAGE', sessionId: session.id }))}>
          Search this conversation
        </button>
      )}
      {continuedFromId && (
        <Link className="menu-item" to={`/continuations/${continuedFromId}`} onClick={close}>
          View the handoff it started from
        </Link>
      )}
      <button type="button" className="menu-item" onClick={closeThen(onShare)}>
        Share read-only link…
      </button>
      {lifecycleItems}
    </>
  );
}

interface SessionNoticesProps {
  sessionId: string;
  continuedFrom: SessionLineage['continuedFrom'];
  arrivedByFollowing: boolean;
  lineageError: Error | undefined;
  follower: ReturnType<typeof useContinuationFollower>;
  liveError: Error | undefined;
  citedRange: CitedRange;
}

/** Above the transcript: where the session came from, where it went, and what is not live or not found. */
function SessionNotices({ sessionId, continuedFrom, arrivedByFollowing, lineageError, follower, liveError, citedRange }: SessionNoticesProps) {
  return (
    <div className="session-notices">
      {continuedFrom && <SuccessorBanner edge={continuedFrom} arrivedByFollowing={arrivedByFollowing} />}
      {lineageError && (
        <p className="notice notice-warning" role="status">
          Where this session came from and went could not be loaded ({lineageError.message}).
        </p>
      )}
      {follower.continuedElsewhere && <ContinuationNotice continuation={follower.continuedElsewhere} onDismiss={follower.dismissContinuedElsewhere} />}
      {liveError && (
        <p className="notice notice-warning" role="status">
          Live updates are paused ({liveError.message}). Reload to catch up.
        </p>
      )}
      <CitedRangeNotice sessionId={sessionId} citedRange={citedRange} />
    </div>
  );
}

function CitedRangeNotice({ sessionId, citedRange }: { sessionId: string; citedRange: CitedRange }) {
  switch (citedRange.status) {
    case 'none':
      return null;
    case 'loading':
      return (
        <p className="notice notice-info" role="status">
          Finding the cited events…
        </p>
      );
    case 'failed':
      return (
        <p className="notice notice-error" role="alert">
          The cited events cannot be shown: {citedRange.message}
        </p>
      );
    case 'found': {
      const { fromSeq, toSeq, via } = citedRange.range;
      return (
        <p className="notice notice-info cited-range-notice" role="status">
          <span>
            Highlighting {fromSeq === toSeq ? `event ${fromSeq}` : `events ${fromSeq}–${toSeq}`}, {CITED_AS[via]}.
          </span>{' '}
          <Link to={`/sessions/${sessionId}`}>Clear highlight</Link>
        </p>
      );
    }
  }
}
