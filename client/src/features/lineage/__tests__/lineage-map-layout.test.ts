import { describe, expect, it } from '@jest/globals';
import { layoutLineageMap, type MapNode } from '../lineage-map-layout';

const node = (sessionId: string, parentId: string | null = null): MapNode => ({ sessionId, parentId });

function drawing(nodes: MapNode[], headId: string) {
  return layoutLineageMap(nodes, headId).rows.map(({ node: { sessionId }, lane, branch, through, fromAbove, toBelow }) => ({
    sessionId,
    lane,
    branch,
    through,
    fromAbove,
    toBelow,
  }));
}

describe('the lineage map', () => {
  it('draws a chain of continuations as one line, oldest first', () => {
    expect(drawing([node('a'), node('b', 'a'), node('c', 'b')], 'c')).toEqual([
      { sessionId: 'a', lane: 0, branch: false, through: [], fromAbove: false, toBelow: [0] },
      { sessionId: 'b', lane: 0, branch: false, through: [], fromAbove: true, toBelow: [0] },
      { sessionId: 'c', lane: 0, branch: false, through: [], fromAbove: true, toBelow: [] },
    ]);
  });

  it('keeps the path to the head in the first lane and gives a branch a lane of its own', () => {
    // a was continued in b, then branched into c; b went on in d. The head is c, the newest branch.
    const rows = drawing([node('a'), node('b', 'a'), node('c', 'a'), node('d', 'b')], 'c');

    expect(rows).toEqual([
      { sessionId: 'a', lane: 0, branch: false, through: [], fromAbove: false, toBelow: [0, 1] },
      { sessionId: 'b', lane: 1, branch: false, through: [0], fromAbove: true, toBelow: [1] },
      { sessionId: 'c', lane: 0, branch: true, through: [1], fromAbove: true, toBelow: [] },
      { sessionId: 'd', lane: 1, branch: false, through: [], fromAbove: true, toBelow: [] },
    ]);
    expect(layoutLineageMap([node('a'), node('b', 'a'), node('c', 'a'), node('d', 'b')], 'c').lanes).toBe(2);
  });

  it('lets a later branch reuse a lane once the line in it has ended', () => {
    // b branches off a and ends; later c continues a and branches into e after d.
    const rows = drawing([node('a'), node('b', 'a'), node('c', 'a'), node('d', 'c'), node('e', 'c')], 'd');

    expect(rows.map(({ sessionId, lane }) => [sessionId, lane])).toEqual([
      ['a', 0],
      ['b', 1],
      ['c', 0],
      ['d', 0],
      ['e', 1],
    ]);
  });

  it('starts a line of its own for a session whose predecessor is missing', () => {
    const rows = drawing([node('a'), node('b', 'a'), node('x', 'gone')], 'b');

    expect(rows.map(({ sessionId, lane, fromAbove, toBelow }) => [sessionId, lane, fromAbove, toBelow])).toEqual([
      ['a', 0, false, [0]],
      ['b', 0, true, []],
      ['x', 0, false, []],
    ]);
  });
});
