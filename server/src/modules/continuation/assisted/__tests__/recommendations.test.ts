import { ContentHit, EventBound, Hit, OTHER_HITS_WEIGHT, RECALLED_BASE_SCORE, purposeQuery, rankRanges, rankSources } from '../recommendations';

const event = (sessionId: string, seq: number): EventBound => ({ id: `${sessionId}-${seq}`, sessionId, seq, tokenCount: 10, tokenTotal: 10 * seq, hash: `h${seq}` });

function hit(sessionId: string, seq: number, relevance: number, words: string[] = ['export']): Hit {
  return {
    eventId: `${sessionId}-${seq}`,
    sessionId,
    seq,
    relevance,
    matchedWords: words,
    neighbours: [seq - 1, seq, seq + 1].filter((n) => n >= 1).map((n) => event(sessionId, n)),
  };
}

describe('assisted selection ranking', () => {
  it('turns each hit into the window of its neighbours, and merges windows that overlap or touch', () => {
    const ranked = rankRanges([hit('a', 5, 0.3), hit('a', 7, 0.2), hit('a', 20, 0.1)], [], 10);
    expect(ranked.map((range) => [range.first.seq, range.last.seq])).toEqual([
      [4, 8],
      [19, 21],
    ]);
    expect(ranked[0].score).toBeCloseTo(0.3 + OTHER_HITS_WEIGHT * 0.2);
    expect(ranked[0].tokenCount).toBe(50);
    expect(ranked[0].reason).toBe('matches "export" in 2 events');
  });

  it('keeps windows of different sessions apart, best first', () => {
    const ranked = rankRanges([hit('a', 2, 0.1), hit('b', 2, 0.4)], [], 10);
    expect(ranked.map((range) => range.first.sessionId)).toEqual(['b', 'a']);
  });

  it('boosts a range that was recalled before, and lets a recalled range without a match compete', () => {
    const recalled = [{ first: event('a', 19), last: event('a', 21), recallCount: 3 }, { first: event('c', 1), last: event('c', 2), recallCount: 1 }];
    const ranked = rankRanges([hit('a', 5, 0.2), hit('a', 20, 0.15)], recalled, 10);
    expect(ranked[0].first.seq).toBe(19);
    expect(ranked[0].reason).toContain('recalled 3 times');
    const unmatched = ranked.find((range) => range.first.sessionId === 'c')!;
    expect(unmatched.score).toBeCloseTo(RECALLED_BASE_SCORE * (1 + 0.5 * Math.log1p(1)));
    expect(unmatched.reason).toBe('recalled 1 time from an earlier projection');
  });

  it('is deterministic and stops at the limit', () => {
    const hits = [hit('b', 9, 0.2), hit('a', 3, 0.2), hit('a', 30, 0.2)];
    const once = rankRanges(hits, [], 2);
    expect(once).toEqual(rankRanges([...hits].reverse(), [], 2));
    expect(once.map((range) => `${range.first.sessionId}:${range.first.seq}`)).toEqual(['a:2', 'a:29']);
  });

  it('reads a purpose as alternative words, without operators or repeats', () => {
    expect(purposeQuery('Find the bucket, OR the "export" -job and the bucket.')).toEqual({
      query: { strict: '', anyWords: 'find or the or bucket or export or job' },
      words: ['find', 'the', 'bucket', 'export', 'job'],
    });
  });

  it('ranks resource blocks and memory entries among the ranges by their relevance, ties going to ranges', () => {
    const block: ContentHit = { kind: 'RESOURCE', url: 'https://docs.example/keys', version: '2', blockId: 'rotation', path: null, relevance: 0.5, matchedWords: ['keys', 'rotated'] };
    const memory: ContentHit = { kind: 'MEMORY', url: null, version: null, blockId: null, path: '/notes/keys', relevance: 0.2, matchedWords: ['keys'] };
    const ranked = rankSources([hit('a', 5, 0.3), hit('b', 5, 0.2)], [], [memory, block], 10);
    expect(ranked.map((source) => (source.type === 'EVENTS' ? `events ${source.first.sessionId}` : `${source.hit.kind} ${source.hit.path ?? source.hit.blockId}`))).toEqual([
      'RESOURCE rotation',
      'events a',
      'events b',
      'MEMORY /notes/keys',
    ]);
    expect(ranked[0].reason).toBe('matches "keys", "rotated" in resource https://docs.example/keys block rotation');
    expect(rankSources([hit('a', 5, 0.3)], [], [block], 1).map((source) => source.type)).toEqual(['CONTENT']);
  });
});
