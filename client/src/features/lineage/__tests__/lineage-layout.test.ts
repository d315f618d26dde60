import { describe, expect, it } from '@jest/globals';
import { hasBranches, layoutLineageTree } from '../lineage-layout';

describe('laying out a lineage tree', () => {
  it('puts each successor below its predecessor, depth first', () => {
    const placed = layoutLineageTree([
      { sessionId: 'a', parentId: null, depth: 0, title: 'A' },
      { sessionId: 'b', parentId: 'a', depth: 1, title: 'B' },
      { sessionId: 'c', parentId: 'a', depth: 1, title: 'C' },
      { sessionId: 'd', parentId: 'b', depth: 2, title: 'D' },
    ]);

    expect(placed.map(({ sessionId, row, parentRow }) => [sessionId, row, parentRow])).toEqual([
      ['a', 0, null],
      ['b', 1, 0],
      ['d', 2, 1],
      ['c', 3, 0],
    ]);
  });

  it('starts a tree of its own for a session whose predecessor is missing', () => {
    const placed = layoutLineageTree([
      { sessionId: 'a', parentId: null, depth: 0, title: 'A' },
      { sessionId: 'x', parentId: 'gone', depth: 3, title: 'X' },
    ]);

    expect(placed.map(({ sessionId, parentRow }) => [sessionId, parentRow])).toEqual([
      ['a', null],
      ['x', null],
    ]);
  });

  it('knows a branch by a depth holding two sessions', () => {
    expect(hasBranches([{ depth: 0 }, { depth: 1 }, { depth: 2 }])).toBe(false);
    expect(hasBranches([{ depth: 0 }, { depth: 1 }, { depth: 1 }])).toBe(true);
  });
});
