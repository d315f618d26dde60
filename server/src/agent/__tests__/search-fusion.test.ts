import { HistoryHit, fuseHits } from '../tools';

const hit = (seq: number, score: number): HistoryHit => ({ sessionId: 's', eventId: `e${seq}`, seq, kind: 'USER_MESSAGE', score, snippet: `snippet ${seq}` });

describe('merging the hits of several search_history queries', () => {
  it('ranks an event several queries find above one a single query ranks first, each event once with its best score', () => {
    const fused = fuseHits([
      [hit(1, 9), hit(2, 5)],
      [hit(3, 0.4), hit(2, 0.3)],
    ]);
    expect(fused.map((of) => [of.seq, of.queries, of.score])).toEqual([
      [2, [0, 1], 5],
      [1, [0], 9],
      [3, [1], 0.4],
    ]);
  });

  it('breaks ties by first appearance, so one query keeps its own order', () => {
    expect(fuseHits([[hit(4, 1), hit(5, 1), hit(6, 1)]]).map((of) => of.seq)).toEqual([4, 5, 6]);
  });
});
