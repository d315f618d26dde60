/** What a tab knows when it hears that the session on screen was continued. */
export interface FollowSituation {
  /** The tab still shows the predecessor. */
  viewingPredecessor: boolean;
  /** This tab asked for the continuation (the dialog, or a branch written here). */
  initiatedHere: boolean;
  /** The transcript is scrolled to its end and its live updates flow. */
  followingTranscript: boolean;
  /** The person moved elsewhere (another entry of the history) since the turn began. */
  navigatedSince: boolean;
  /** This tab followed this continuation before: Back returned here on purpose. */
  alreadyFollowed: boolean;
}

/**
 * - `navigate`: push the successor onto the history, so Back returns to the predecessor.
 * - `notify`: a non-blocking notice with a link; the person stays where they are.
 * - `ignore`: nothing to say (another place is on screen, or the move was already made).
 */
export type FollowDecision = 'navigate' | 'notify' | 'ignore';

/**
 * Moves a tab along with a continuation only while the person is plainly following the turn
 * that caused it; anyone reading elsewhere is told instead of pulled away.
 */
export function decideFollow(situation: FollowSituation): FollowDecision {
  if (!situation.viewingPredecessor || situation.alreadyFollowed) return 'ignore';
  if (situation.navigatedSince) return 'notify';
  if (situation.initiatedHere || situation.followingTranscript) return 'navigate';
  return 'notify';
}
