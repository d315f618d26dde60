/** One session of a lineage tree: `parentId` is its predecessor, null for the origin. */
export interface LineageTreeNode {
  sessionId: string;
  parentId: string | null;
  depth: number;
  title: string;
}

export interface PlacedNode extends LineageTreeNode {
  /** Row of the drawing, in depth-first order, so each branch reads top to bottom. */
  row: number;
  /** Row of its predecessor, for the connector; null for the origin. */
  parentRow: number | null;
}

/** True when someone branched: some depth holds more than one session. */
export function hasBranches(nodes: readonly { depth: number }[]): boolean {
  const seen = new Set<number>();
  for (const { depth } of nodes) {
    if (seen.has(depth)) return true;
    seen.add(depth);
  }
  return false;
}

/**
 * Places the lineage as an indented tree: one row per session, each successor below its
 * predecessor, siblings in the order given (the server lists them shallowest first).
 * A node whose predecessor is missing from the list starts a tree of its own.
 */
export function layoutLineageTree(nodes: readonly LineageTreeNode[]): PlacedNode[] {
  const ids = new Set(nodes.map((node) => node.sessionId));
  const successors = new Map<string | null, LineageTreeNode[]>();
  for (const node of nodes) {
    const parentId = node.parentId !== null && ids.has(node.parentId) ? node.parentId : null;
    successors.set(parentId, [...(successors.get(parentId) ?? []), node]);
  }

  const placed: PlacedNode[] = [];
  const visited = new Set<string>();
  function place(node: LineageTreeNode, parentRow: number | null) {
    if (visited.has(node.sessionId)) return;
    visited.add(node.sessionId);
    const row = placed.length;
    placed.push({ ...node, row, parentRow });
    for (const successor of successors.get(node.sessionId) ?? []) place(successor, row);
  }
  for (const origin of successors.get(null) ?? []) place(origin, null);
  return placed;
}
