import { useCallback, useEffect, useRef } from 'react';
import { Link, useLocation, useParams, useSearchParams } from 'react-router';
import { formatCount, formatDateTime } from '../../app/format';
import { AgentActivity } from '../agent/AgentActivity';
import { ApprovalToggle } from '../continuation/ApprovalToggle';
import { ContinuationNotice } from '../continuation/ContinuationNotice';
import { ProposalFollowContext } from '../continuation/ProposalCard';
import { useProposalUpdates } from '../continuation/useContinuationProposal';
import { ContinueSessionAction, type ContinueSessionHandle } from '../continuation/ContinueSessionDialog';
import { SuccessorBanner } from '../continuation/SuccessorBanner';
import { isFollowedState, useContinuationFollower } from '../continuation/useContinuationFollower';
import { LineageControl } from '../lineage/LineageControl';
import { EventSearch } from '../search/EventSearch';
import { useSessionLineage } from '../lineage/useSessionLineage';
import { citedEventIds, useCitedRange, type CitedRange } from './cited-range';
import { Composer } from './Composer';
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

export function SessionPage({ sessionId }: { sessionId: string }) {
  const [search] = useSearchParams();
  const location = useLocation();
  const cited = citedEventIds(search);
  const citedRange = useCitedRange(sessionId, cited);
  const transcript = useSessionTranscript(sessionId);
  const { session, events, hasOlder, loadingOlder, olderError, loadOlder } = transcript;
  const live = useLiveTranscript(sessionId, session ? (events.at(-1)?.seq ?? 0) : null);
  const { lineage, error: lineageError } = useSessionLineage(sessionId);

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

  // The tab says which session it shows; the app's name comes back when the page goes.
  const title = session?.title;
  useEffect(() => {
    if (!title) return;
    document.title = `${title} · Session Continuation`;
    return () => {
      document.title = 'Session Continuation';
    };
  }, [title]);

  // Page back through the transcript until the cited range's first event is loaded.
  const firstLoadedSeq = events[0]?.seq;
  const citedFromSeq = citedRange.status === 'found' ? citedRange.range.fromSeq : null;
  useEffect(() => {
    if (citedFromSeq === null || firstLoadedSeq === undefined || firstLoadedSeq <= citedFromSeq) return;
    if (hasOlder && !loadingOlder && !olderError) void loadOlder();
  }, [citedFromSeq, firstLoadedSeq, hasOlder, loadingOlder, olderError, loadOlder]);

  if (transcript.loading) {
    return (
      <p className="page-state" role="status">
        Loading session…
      </p>
    );
  }
  if (!session) {
    return (
      <section className="page-state">
        <h1>{transcript.error ? 'The session could not be loaded' : 'Session not found'}</h1>
        <p role={transcript.error ? 'alert' : undefined}>
          {transcript.error?.message ?? 'It does not exist, or it belongs to another account.'}
        </p>
        <Link to="/">Back to all sessions</Link>
      </section>
    );
  }

  const latestUserMessage = events.findLast((event) => event.kind === 'USER_MESSAGE');
  // The dialog's default current request; without one there is nothing to continue yet.
  const requestToContinue = session.status === 'ACTIVE' ? latestUserMessage?.text : undefined;
  const liveError = live.error ?? follower.error;

  return (
    <div className="session-page">
      <header className="session-header">
        <Link to="/" className="back-link">
          ← All sessions
        </Link>
        {lineage && <LineageControl session={lineage} />}
        <div className="session-title-row">
          <h1>{session.title}</h1>
          {requestToContinue && (
            <ContinueSessionAction
              ref={continueAction}
              session={session}
              latestUserMessage={requestToContinue}
              initiation={follower.initiation}
            />
          )}
        </div>
        {session.description && <p className="session-description">{session.description}</p>}
        <p className="session-facts">
          <span className={`badge badge-${session.status.toLowerCase()}`}>{session.status.toLowerCase()}</span>
          <span>{session.kind.toLowerCase()}</span>
          <span>{formatCount(session.eventCount, 'event')}</span>
          <span>{formatCount(session.tokenCount, 'token')}</span>
          <span>
            started <time dateTime={session.createdAt}>{formatDateTime(session.createdAt)}</time>
          </span>
        </p>
        {session.status === 'ACTIVE' && <ApprovalToggle sessionId={session.id} approval={session.continuationApproval} />}
        <EventSearch sessionId={session.id} />
        {lineage?.continuedFrom && (
          <SuccessorBanner
            edge={lineage.continuedFrom}
            arrivedByFollowing={
              isFollowedState(location.state) && location.state.followedContinuation === lineage.continuedFrom.id
            }
          />
        )}
        {lineageError && !lineage && (
          <p className="notice notice-warning" role="status">
            Where this session came from and went could not be loaded ({lineageError.message}).
          </p>
        )}
        {follower.continuedElsewhere && (
          <ContinuationNotice
            continuation={follower.continuedElsewhere}
            onDismiss={follower.dismissContinuedElsewhere}
          />
        )}
        {liveError && (
          <p className="notice notice-warning" role="status">
            Live updates are paused ({liveError.message}). Reload to catch up.
          </p>
        )}
        <CitedRangeNotice sessionId={session.id} citedRange={citedRange} />
      </header>
      <ProposalFollowContext.Provider value={follower.initiation}>
        <Transcript
          events={events}
          hasOlder={hasOlder}
          loadingOlder={loadingOlder}
          olderError={olderError}
          onLoadOlder={loadOlder}
          citedRange={citedRange.status === 'found' ? citedRange.range : null}
          onFollowingChange={onFollowingChange}
        />
      </ProposalFollowContext.Provider>
      {session.status === 'ACTIVE' && (
        <AgentActivity sessionId={session.id} onContinue={requestToContinue ? openContinueDialog : undefined} />
      )}
      <Composer
        session={session}
        currentContinuation={lineage?.currentContinuation ?? null}
        initiation={follower.initiation}
      />
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
      const { fromSeq, toSeq } = citedRange.range;
      return (
        <p className="notice notice-info cited-range-notice" role="status">
          <span>
            Highlighting {fromSeq === toSeq ? `event ${fromSeq}` : `events ${fromSeq}–${toSeq}`}, a cited source.
          </span>{' '}
          <Link to={`/sessions/${sessionId}`}>Clear highlight</Link>
        </p>
      );
    }
  }
}
