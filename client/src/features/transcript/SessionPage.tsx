import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { useCommands, type Command } from '../../app/commands';
import { useShell } from '../../app/shell/shell-context';
import { TopBar } from '../../app/shell/TopBar';
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
  const navigate = useNavigate();
  const shell = useShell();
  const cited = useMemo(() => citedEventIds(search), [search]);
  const citedRange = useCitedRange(sessionId, cited);
  const transcript = useSessionTranscript(sessionId);
  const { session, events, hasOlder, loadingOlder, olderError, loadOlder } = transcript;
  const live = useLiveTranscript(sessionId, session ? (events.at(-1)?.seq ?? 0) : null);
  const { lineage, error: lineageError } = useSessionLineage(sessionId);
  const agent = useAgentActivity(sessionId, session?.status === 'ACTIVE');

  // Read when a continuation is announced; kept in refs so scrolling does not re-render the page.
  const atLiveEnd = useRef(cited === null);
  const liveFailed = useRef(false);
  useEffect(() => {
    liveFailed.current = live.error !== undefined;
  }, [live.error]);
  const isFollowingTranscript = useCallback(() => atLiveEnd.current && !liveFailed.current, []);
  const onFollowingChange = useCallback((following: boolean) => {
    atLiveEnd.current = following;
  }, []);
  const follower = useContinuationFollower(sessionId, isFollowingTranscript);
  useProposalUpdates(sessionId);
  const continueAction = useRef<ContinueSessionHandle>(null);
  const openContinueDialog = useCallback(() => continueAction.current?.open(), []);
  useDocumentTitle(session?.title);

  // Page back through the transcript until the cited range's first event is loaded.
  const firstLoadedSeq = events[0]?.seq;
  const citedFromSeq = citedRange.status === 'found' ? citedRange.range.fromSeq : null;
  useEffect(() => {
    if (citedFromSeq === null || firstLoadedSeq === undefined || firstLoadedSeq <= citedFromSeq) return;
    if (hasOlder && !loadingOlder && !olderError) void loadOlder();
  }, [citedFromSeq, firstLoadedSeq, hasOlder, loadingOlder, olderError, loadOlder]);

  const latestUserMessage = events.findLast((event) => event.kind === 'USER_MESSAGE');
  // The dialog's default current request; without one there is nothing to continue yet.
  const requestToContinue = session?.status === 'ACTIVE' && !session.erasedAt ? latestUserMessage?.text : undefined;
  const continuedFrom = lineage?.continuedFrom ?? null;
  const latestContinuation = lineage?.continuations[0] ?? null;

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
  const [sharing, setSharing] = useState(false);
  const lifecycle = useLifecycleActions(session ?? null, lineage ? lineage.lineageTree.map((node) => node.session.title) : session ? [session.title] : []);

  if (transcript.loading) {
    return (
      <p className="page-state" role="status">
        Loading session…
      </p>
    );
  }
  if (!session) {
    return (
      <div className="page">
        <TopBar>
          <h1>{transcript.error ? 'The session could not be loaded' : 'Session not found'}</h1>
        </TopBar>
        <section className="page-state">
          <p role={transcript.error ? 'alert' : undefined}>
            {transcript.error?.message ?? 'It does not exist, or it belongs to another account.'}
          </p>
          <Link to="/">Start a new conversation</Link>
        </section>
      </div>
    );
  }

  const liveError = live.error ?? follower.error;
  const lastEvent = events.at(-1);

  return (
    <div className="session-page">
      <SessionHeader
        session={session}
        lineage={lineage}
        menu={(close) => (
          <>
            {session.status === 'ACTIVE' && <ApprovalToggle sessionId={session.id} approval={session.continuationApproval} />}
            {requestToContinue && (
              <button
                type="button"
                className="menu-item"
                onClick={() => {
                  close();
                  openContinueDialog();
                }}
              >
                Continue in new session
              </button>
            )}
            {shell && (
              <button
                type="button"
                className="menu-item"
                onClick={() => {
                  close();
                  shell.openPalette({ scope: 'LINEAGE', sessionId: session.id });
                }}
              >
                Search this conversation
              </button>
            )}
            {continuedFrom && (
              <Link className="menu-item" to={`/continuations/${continuedFrom.id}`} onClick={close}>
                View the handoff it started from
              </Link>
            )}
            <button
              type="button"
              className="menu-item"
              onClick={() => {
                close();
                setSharing(true);
              }}
            >
              Share read-only link…
            </button>
            {lifecycle.menu(close)}
          </>
        )}
      />
      {lifecycle.overlay}
      {sharing && <ShareSessionDialog session={session} onClose={() => setSharing(false)} />}
      <div className="session-notices">
        {continuedFrom && (
          <SuccessorBanner
            edge={continuedFrom}
            arrivedByFollowing={isFollowedState(location.state) && location.state.followedContinuation === continuedFrom.id}
          />
        )}
        {lineageError && !lineage && (
          <p className="notice notice-warning" role="status">
            Where this session came from and went could not be loaded ({lineageError.message}).
          </p>
        )}
        {follower.continuedElsewhere && (
          <ContinuationNotice continuation={follower.continuedElsewhere} onDismiss={follower.dismissContinuedElsewhere} />
        )}
        {liveError && (
          <p className="notice notice-warning" role="status">
            Live updates are paused ({liveError.message}). Reload to catch up.
          </p>
        )}
        <CitedRangeNotice sessionId={session.id} citedRange={citedRange} />
      </div>
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
        {session.erasedAt ? (
          <p className="notice" role="status">
            This session was erased: it takes no more messages.
          </p>
        ) : (
          <Composer session={session} currentContinuation={lineage?.currentContinuation ?? null} initiation={follower.initiation} />
        )}
      </div>
      {requestToContinue && (
        <ContinueSessionDialog ref={continueAction} session={session} latestUserMessage={requestToContinue} initiation={follower.initiation} />
      )}
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
