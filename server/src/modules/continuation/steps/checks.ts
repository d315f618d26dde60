import type { ContinuationSnapshot } from '../continuation.repository';
import { nextContinuationStreak } from '../continuations';
import { ErrorCode } from '../../../shared/errors';
import { RunKind } from '../../conversation/runs';
import { EventKind } from '../../conversation/transcript';
import { EventEntity } from '../../conversation/event.entity';
import { RunEntity } from '../../conversation/run.entity';
import { SessionEntity } from '../../conversation/session.entity';
import { ContinuationPolicy } from './policy';
import { refuse } from './refusal';

/** The user message the continuation starts from: the one named (among the snapshot's events of the account), or the session's latest. */
export function initiatingEvent(
  predecessor: SessionEntity,
  initiatingEventId: string | null | undefined,
  snapshot: Pick<ContinuationSnapshot, 'latestUserMessage' | 'citedEvents'>,
): EventEntity {
  const path = ['input', 'initiatingEventId'];
  if (initiatingEventId != null) {
    const event = snapshot.citedEvents.find((cited) => cited.id === initiatingEventId && cited.sessionId === predecessor.id);
    if (!event || event.kind !== EventKind.USER_MESSAGE) {
      return refuse(ErrorCode.INVALID_INPUT, 'initiatingEventId must name a user message of the session being continued.', [
        { path, message: 'Not a user message of this session.' },
      ]);
    }
    return event;
  }
  const latestUserMessage = snapshot.latestUserMessage;
  if (!latestUserMessage) {
    return refuse(ErrorCode.INVALID_INPUT, 'The session has no user message to continue from.', [
      { path, message: 'The session has no user message.' },
    ]);
  }
  return latestUserMessage;
}

/** Continuation happens between turns: no other run active, no tool call without its result. */
export function assertTurnBoundary(activeRuns: RunEntity[], unresolvedToolCallId: string | null, callerRunId?: string): void {
  const others = activeRuns.filter((run) => run.kind === RunKind.TURN && run.id !== callerRunId);
  if (others.length > 0) {
    refuse(ErrorCode.TURN_IN_PROGRESS, 'A turn is still running in this session: continue once it has ended.', [
      { path: ['input', 'sessionId'], message: `Run ${others[0].id} is ${others[0].status}.` },
    ]);
  }
  if (unresolvedToolCallId !== null) {
    refuse(ErrorCode.TURN_IN_PROGRESS, 'A tool call has no result yet: continue once it is resolved.', [
      { path: ['input', 'sessionId'], message: `Tool call ${unresolvedToolCallId} is unresolved.` },
    ]);
  }
}

/** Pending delegated runs must all be named in `transfer.pendingRuns`, and only those may be. */
export function transferablePendingRuns(activeRuns: RunEntity[], named: string[]): string[] {
  const pending = activeRuns.filter((run) => run.kind === RunKind.DELEGATED);
  const pendingIds = new Set(pending.map((run) => run.id));
  const unknown = named.map((id, index) => ({ id, index })).filter(({ id }) => !pendingIds.has(id));
  if (unknown.length > 0) {
    refuse(
      ErrorCode.INVALID_INPUT,
      'transfer.pendingRuns may name only pending delegated runs of the session being continued.',
      unknown.map(({ id, index }) => ({
        path: ['input', 'transfer', 'pendingRuns', String(index)],
        message: `${id} is not a pending delegated run of this session.`,
      })),
    );
  }
  const left = pending.filter((run) => !named.includes(run.id));
  if (left.length > 0) {
    refuse(
      ErrorCode.PENDING_RUNS_NOT_TRANSFERRED,
      'Delegated runs are still pending: name them in transfer.pendingRuns or let them settle first.',
      left.map((run) => ({ path: ['input', 'transfer', 'pendingRuns'], message: `Run ${run.id} is ${run.status}.` })),
    );
  }
  return [...new Set(named)];
}

/** The successor's continuation streak, or RATE_LIMITED. */
export function checkRateLimits(
  policy: ContinuationPolicy,
  predecessor: SessionEntity,
  hasNewUserMessage: boolean,
  recentContinuations: number,
): number {
  const streak = nextContinuationStreak(predecessor.continuationStreak, hasNewUserMessage);
  if (streak > policy.streakLimit) {
    refuse(
      ErrorCode.RATE_LIMITED,
      `${policy.streakLimit} continuations in a row without a new user message: wait for the user before continuing again.`,
      [{ path: ['input', 'sessionId'], message: `Continuation streak would be ${streak}.` }],
    );
  }
  if (recentContinuations >= policy.perAccountPerMinute) {
    refuse(ErrorCode.RATE_LIMITED, `At most ${policy.perAccountPerMinute} continuations a minute per account: try again shortly.`);
  }
  return streak;
}
