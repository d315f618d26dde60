import { Link } from 'react-router';
import { layoutLineageTree, type LineageTreeNode } from './lineage-layout';

const ROW_HEIGHT = 30;
const INDENT = 22;
const MARGIN = 12;
const LABEL_GAP = 12;
/** SVG text does not wrap or ellipsize: long titles are cut here and read in full by name. */
const LABEL_CHARACTERS = 30;
const CHARACTER_WIDTH = 8;

interface LineageTreeProps {
  nodes: LineageTreeNode[];
  currentSessionId: string;
  labelledBy: string;
}

function shortTitle(title: string): string {
  return title.length <= LABEL_CHARACTERS ? title : `${title.slice(0, LABEL_CHARACTERS - 1)}…`;
}

/** A small drawing of a branched lineage; every session is a link, the current one is marked. */
export function LineageTree({ nodes, currentSessionId, labelledBy }: LineageTreeProps) {
  const placed = layoutLineageTree(nodes);
  const x = (depth: number) => MARGIN + depth * INDENT;
  const y = (row: number) => MARGIN + row * ROW_HEIGHT;
  const width = Math.max(
    ...placed.map(
      (node) => x(node.depth) + LABEL_GAP + (shortTitle(node.title).length + 7) * CHARACTER_WIDTH,
    ),
  );
  const height = y(placed.length - 1) + MARGIN;

  return (
    <div className="lineage-tree">
      <svg role="group" aria-labelledby={labelledBy} width={width} height={height} viewBox={`0 0 ${width} ${height}`}>
        {placed.map(
          (node) =>
            node.parentRow !== null && (
              <path
                key={`connector-${node.sessionId}`}
                className="lineage-connector"
                d={`M ${x(node.depth - 1)} ${y(node.parentRow)} V ${y(node.row)} H ${x(node.depth)}`}
              />
            ),
        )}
        {placed.map((node) => {
          const current = node.sessionId === currentSessionId;
          return (
            <Link
              key={node.sessionId}
              to={`/sessions/${node.sessionId}`}
              className={current ? 'lineage-node lineage-node-current' : 'lineage-node'}
              aria-label={current ? `${node.title} (this session)` : node.title}
              aria-current={current ? 'page' : undefined}
            >
              <title>{node.title}</title>
              <circle cx={x(node.depth)} cy={y(node.row)} r={current ? 7 : 5} />
              <text x={x(node.depth) + LABEL_GAP} y={y(node.row)} dominantBaseline="middle">
                {shortTitle(node.title)}
                {current && ' (here)'}
              </text>
            </Link>
          );
        })}
      </svg>
    </div>
  );
}
