import { describe, expect, it } from '@jest/globals';
import { decideFollow, type FollowDecision, type FollowSituation } from '../follow-decision';

type Row = [
  viewingPredecessor: boolean,
  initiatedHere: boolean,
  followingTranscript: boolean,
  navigatedSince: boolean,
  alreadyFollowed: boolean,
  decision: FollowDecision,
  why: string,
];

// prettier-ignore
const TABLE: Row[] = [
  // viewing initiated following navigated followed  decision
  [true,  true,  true,  false, false, 'navigate', 'this tab asked for it and is reading along'],
  [true,  true,  false, false, false, 'navigate', 'this tab asked for it, even scrolled up'],
  [true,  false, true,  false, false, 'navigate', 'another client continued it while this tab follows the live end'],
  [true,  false, false, false, false, 'notify',   'the reader scrolled away from the live end'],
  [true,  false, true,  true,  false, 'notify',   'the reader moved within the session (e.g. to a cited range)'],
  [true,  true,  true,  true,  false, 'notify',   'the reader moved after asking for it'],
  [true,  true,  true,  false, true,  'ignore',   'already followed once: Back came here on purpose'],
  [true,  false, true,  false, true,  'ignore',   'already followed, announced again'],
  [false, true,  true,  false, false, 'ignore',   'the tab shows another page now'],
  [false, false, false, false, false, 'ignore',   'another page, not following'],
];

describe('following a continuation', () => {
  it.each(TABLE)(
    'viewing %p, initiated %p, following %p, navigated %p, followed %p: %s (%s)',
    (viewingPredecessor, initiatedHere, followingTranscript, navigatedSince, alreadyFollowed, decision) => {
      const situation: FollowSituation = { viewingPredecessor, initiatedHere, followingTranscript, navigatedSince, alreadyFollowed };
      expect(decideFollow(situation)).toBe(decision);
    },
  );
});
