import { countTokens } from '../../../../shared/tokens';
import {
  EVIDENCE_RELEVANCE,
  BEST_HITS,
  EvidenceStep,
  GAP_LINE,
  PASSAGE_DISTANCE,
  PASSAGE_SHARE,
  evidenceOrder,
  mergedRanges,
  passageScores,
  placeEvidence,
} from '../evidence';
import { ProjectedEvent, RecommendedRange } from '../model';
import { countedEvent } from '../render';

function event(sessionId: string, seq: number, text = `Turn ${seq} of ${sessionId}.`): ProjectedEvent {
  const tokenCount = countTokens(text);
  return {
    id: `00000000-0000-4000-8000-${sessionId.padStart(4, '0')}${String(seq).padStart(8, '0')}`,
    sessionId,
    seq,
    kind: 'USER_MESSAGE',
    text,
    data: null,
    tokenCount,
    tokenTotal: 10 * seq,
    hash: `h${seq}`,
  };
}

/** A recommended window around hits, and its events. */
function window(sessionId: string, from: number, to: number, hits: [seq: number, score: number][]): { range: RecommendedRange; events: ProjectedEvent[] } {
  const events = Array.from({ length: to - from + 1 }, (_, index) => event(sessionId, from + index));
  return {
    range: {
      type: 'EVENTS',
      first: events[0],
      last: events[events.length - 1],
      score: Math.max(...hits.map(([, score]) => score)),
      reason: 'matches "x"',
      hits: hits.map(([seq, score]) => ({ seq, score, matchedWords: ['x'] })),
    },
    events,
  };
}

const order = (windows: { range: RecommendedRange; events: ProjectedEvent[] }[]) =>
  evidenceOrder(
    windows.map((of) => of.range),
    windows.map((of) => of.events),
  );
const events = (steps: EvidenceStep[]) => steps.map((step) => step.event);
const at = (events: ProjectedEvent[]) => events.map((of) => `${of.sessionId}:${of.seq}`);

describe('evidence-first placement of recommendations', () => {
  it('takes the best hits of every range before any neighbour, then the event after each, never the one before', () => {
    const windows = [window('a', 4, 6, [[5, 0.2]]), window('b', 9, 11, [[10, 0.9]]), window('a', 19, 21, [[20, 0.5]])];
    expect(at(events(order(windows)))).toEqual(['b:10', 'a:20', 'a:5', 'b:11', 'a:21', 'a:6']);
  });

  it('reaches the next hits only after the neighbours of the best hits, and their neighbours after every other hit', () => {
    const windows = Array.from({ length: BEST_HITS + 3 }, (_, index) => window('a', 10 * index + 1, 10 * index + 3, [[10 * index + 2, 1 - index / 100]]));
    const placed = at(events(order(windows)));
    const hitAt = (index: number) => `a:${10 * index + 2}`;
    expect(placed.slice(0, BEST_HITS)).toEqual(windows.slice(0, BEST_HITS).map((_, index) => hitAt(index)));
    expect(placed.indexOf(hitAt(BEST_HITS))).toBe(2 * BEST_HITS);
    expect(placed.slice(2 * BEST_HITS, 2 * BEST_HITS + 3)).toEqual([hitAt(BEST_HITS), hitAt(BEST_HITS + 1), hitAt(BEST_HITS + 2)]);
  });

  it('lifts a hit by part of the lead of a stronger hit near it in its session, never past that hit', () => {
    const hits = [
      { sessionId: 'a', seq: 10, score: 0.8 },
      { sessionId: 'a', seq: 10 + PASSAGE_DISTANCE, score: 0.2 },
      { sessionId: 'a', seq: 11 + PASSAGE_DISTANCE, score: 0.2 },
      { sessionId: 'b', seq: 11, score: 0.2 },
    ];
    const scores = passageScores(hits).map((hit) => hit.score);
    expect(scores[0]).toBe(0.8);
    expect(scores[1]).toBeCloseTo(0.2 + PASSAGE_SHARE * 0.6);
    expect(scores[1]).toBeLessThan(0.8);
    // Too far from the strong hit, or in another session: as they scored.
    expect(scores.slice(2)).toEqual([0.2, 0.2]);
  });

  it('places a weak hit beside a strong one before an equal hit far from any, though that one comes first', () => {
    const windows = [
      window('a', 1, 3, [[2, 0.3]]),
      ...Array.from({ length: BEST_HITS }, (_, index) => window('a', 100 * index + 100, 100 * index + 102, [[100 * index + 101, 0.9]])),
      window('a', 103, 105, [[104, 0.3]]),
    ];
    const placed = at(events(order(windows)));
    expect(placed.indexOf('a:104')).toBeLessThan(placed.indexOf('a:2'));
  });

  it('takes each event once, even where windows overlap', () => {
    const windows = [window('a', 4, 6, [[5, 0.9]]), window('a', 5, 7, [[6, 0.8]])];
    expect(at(events(order(windows)))).toEqual(['a:5', 'a:6', 'a:7']);
  });

  it('merges consecutive placed events into ranges, ranked by their earliest-placed event, one group per session', () => {
    const placed = [event('a', 20), event('b', 3), event('a', 5), event('a', 21), event('a', 4)];
    expect(mergedRanges(placed).map(({ sessionId, ranges }) => [sessionId, ranges.map((range) => at(range.events))])).toEqual([
      ['a', [['a:20', 'a:21'], ['a:4', 'a:5']]],
      ['b', [['b:3']]],
    ]);
  });

  it('fills the budget hits first, shows no event twice, and lists each merged range as a recommended item', () => {
    const windows = [window('a', 4, 6, [[5, 0.9]]), window('a', 19, 21, [[20, 0.5]])];
    const shown = new Map([[windows[1].events[2].id, 'the recent exchange']]);
    const expected = [
      `<excerpt session="a" relevance="${EVIDENCE_RELEVANCE}">`,
      countedEvent(windows[0].events[1]).text,
      countedEvent(windows[0].events[2]).text,
      GAP_LINE,
      countedEvent(windows[1].events[1]).text,
      '</excerpt>',
    ];
    // Room for both hits and one neighbour, not for a fourth event.
    const room = countTokens(expected.join('\n')) + 1 + 5;
    const placed = placeEvidence(order(windows), windows.map((of) => of.range), (tokens) => tokens <= room, shown)!;
    expect(placed.text.tokens).toBe(countTokens(placed.text.text));
    expect(placed.ids).toEqual([windows[0].events[1].id, windows[1].events[1].id, windows[0].events[2].id]);
    expect(placed.text.text.split('\n')).toEqual(expected);
    expect(placed.items.map((item) => [item.kind, item.status, item.origin, item.fromEventId ?? item.eventId, item.score, item.relevance])).toEqual([
      ['SESSION_EVENTS', 'INCLUDED', 'RECOMMENDED', windows[0].events[1].id, 0.9, 'matches "x" in 1 event'],
      ['SESSION_EVENT', 'INCLUDED', 'RECOMMENDED', windows[1].events[1].id, 0.5, 'matches "x" in 1 event'],
    ]);
  });

  it('places a neighbour only beside its hit, or where the context shows the hit already', () => {
    const windows = [window('a', 4, 6, [[5, 0.9]])];
    const [hit, after] = [windows[0].events[1], windows[0].events[2]];
    // Room for the shorter neighbour alone, not for the hit.
    const tight = (tokens: number) => tokens <= countedEvent(after).tokens + 40;
    const long = window('a', 4, 6, [[5, 0.9]]);
    long.events[1] = event('a', 5, 'A much longer turn that holds the answer, with many more words than its neighbours have in them.');
    expect(placeEvidence(order([long]), [long.range], tight, new Map())).toBeNull();
    const beside = placeEvidence(order(windows), [windows[0].range], () => true, new Map([[hit.id, 'the recent exchange']]))!;
    expect(beside.ids).toEqual([after.id]);
  });

  it('places nothing when not even the best hit fits', () => {
    const windows = [window('a', 4, 6, [[5, 0.9]])];
    expect(placeEvidence(order(windows), [windows[0].range], (tokens) => tokens <= 20, new Map())).toBeNull();
  });
});
