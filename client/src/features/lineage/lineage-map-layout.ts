/** One session of a lineage as the map places it: `parentId` is its predecessor, null for the origin. */
export interface MapNode {
  sessionId: string;
  parentId: string | null;
}

/** One row of the map: a session, the lane its dot sits in, and the lines drawn across the row. */
export interface MapRow<N extends MapNode> {
  node: N;
  lane: number;
  /** Not the first successor of its predecessor: someone branched the conversation there. */
  branch: boolean;
  /** Lanes whose line runs through the whole row, past this session. */
  through: number[];
  /** A line comes down from the row above into this session's dot. */
  fromAbove: boolean;
  /** Lanes a line leaves this session's dot for, down to the next row: its own, or a branch's. */
  toBelow: number[];
}

export interface LineageMapLayout<N extends MapNode> {
  rows: MapRow<N>[];
  /** How many lanes the widest row uses. */
  lanes: number;
}

interface Chain {
  /** Row indexes of its sessions, in order. */
  rows: number[];
  /** Row of the session it branched from; null for an origin. */
  from: number | null;
  lane: number;
}

/**
 * Places a lineage as a graph in rows: one session per row in the order given (each successor
 * after its predecessor, e.g. oldest first), each line of continuations in a lane of its own. The path to `headId`, where the conversation is now, keeps
 * the first lane; every other branch takes the leftmost lane free for as long as it runs. A
 * session whose predecessor is missing from `nodes` starts a line of its own.
 */
export function layoutLineageMap<N extends MapNode>(nodes: readonly N[], headId: string | null): LineageMapLayout<N> {
  const rowOf = new Map(nodes.map((node, row) => [node.sessionId, row]));
  const parentOf = (node: N) => (node.parentId !== null && rowOf.has(node.parentId) ? node.parentId : null);
  const successors = new Map<string, N[]>();
  for (const node of nodes) {
    const parentId = parentOf(node);
    if (parentId !== null) successors.set(parentId, [...(successors.get(parentId) ?? []), node]);
  }

  const isLaterSuccessor = (node: N) => {
    const parentId = parentOf(node);
    return parentId !== null && successors.get(parentId)![0] !== node;
  };

  const onHeadPath = new Set<string>();
  for (let at = headId === null ? undefined : nodes[rowOf.get(headId) ?? -1]; at; ) {
    onHeadPath.add(at.sessionId);
    const parentId = parentOf(at);
    at = parentId === null ? undefined : nodes[rowOf.get(parentId)!];
  }

  // Each line follows the successor towards the head, else the oldest one; the others branch off.
  const chains: (Chain & { head: boolean })[] = [];
  const follow = (start: N, from: number | null) => {
    const chain = { rows: [] as number[], from, lane: 0, head: false };
    chains.push(chain);
    for (let at: N | undefined = start; at; ) {
      chain.rows.push(rowOf.get(at.sessionId)!);
      chain.head ||= at.sessionId === headId;
      const next: N[] = successors.get(at.sessionId) ?? [];
      const continuing: N | undefined = next.find((successor) => onHeadPath.has(successor.sessionId)) ?? next[0];
      for (const other of next) {
        if (other !== continuing) follow(other, rowOf.get(at.sessionId)!);
      }
      at = continuing;
    }
  };
  for (const node of nodes) if (parentOf(node) === null) follow(node, null);

  // The head's line first, so it keeps lane 0; then by where each line starts.
  const start = (chain: Chain) => chain.from ?? chain.rows[0];
  const end = (chain: Chain) => chain.rows[chain.rows.length - 1];
  const placed: Chain[] = [];
  for (const chain of [...chains].sort((a, b) => Number(b.head) - Number(a.head) || start(a) - start(b))) {
    let lane = 0;
    while (placed.some((other) => other.lane === lane && start(other) <= end(chain) && start(chain) <= end(other))) lane += 1;
    chain.lane = lane;
    placed.push(chain);
  }

  const rows: MapRow<N>[] = nodes.map((node) => ({
    node,
    lane: 0,
    branch: isLaterSuccessor(node),
    through: [],
    fromAbove: false,
    toBelow: [],
  }));
  for (const chain of chains) {
    const points = chain.from === null ? chain.rows : [chain.from, ...chain.rows];
    for (const row of chain.rows) rows[row].lane = chain.lane;
    for (let index = 1; index < points.length; index += 1) {
      const [above, below] = [points[index - 1], points[index]];
      rows[above].toBelow.push(chain.lane);
      for (let row = above + 1; row < below; row += 1) rows[row].through.push(chain.lane);
      rows[below].fromAbove = true;
    }
  }
  for (const row of rows) row.toBelow.sort((a, b) => a - b);
  const lanes = Math.max(1, ...rows.flatMap((row) => [row.lane, ...row.through, ...row.toBelow].map((lane) => lane + 1)));
  return { rows, lanes };
}
