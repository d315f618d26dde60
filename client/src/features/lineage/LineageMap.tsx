import { useMemo } from 'react';
import { Link } from 'react-router';
import { formatDateTime, formatWhen } from '../../app/format';
import { graphql } from '../../gql';
import type { LineageMapNodeFragment } from '../../gql/graphql';
import { reasonInBrief, transitionInWords } from '../continuation/continuation-words';
import { layoutLineageMap, type MapRow } from './lineage-map-layout';
import './lineage.css';

export const LineageMapNodeFragmentDocument = graphql(`
  fragment LineageMapNode on LineageNode {
    depth
    session {
      id
      title
      status
      createdAt
    }
    edge {
      id
      reason
      actor
      createdAt
      predecessor {
        id
        title
      }
    }
  }
`);

/** Width of a lane, and where a session's dot sits from the top of its row, in pixels. */
const LANE = 14;
const DOT_Y = 11;
const laneX = (lane: number) => LANE / 2 + lane * LANE;

interface MapSession {
  sessionId: string;
  parentId: string | null;
  node: LineageMapNodeFragment;
}

interface LineageMapProps {
  nodes: readonly LineageMapNodeFragment[];
  /** Where the conversation is now: the end of its newest line of continuations. */
  headId: string;
  /** The session on screen, marked as the current page. */
  currentSessionId?: string | null;
  /** The continuation being inspected, marked on the session it leads to. */
  inspectedEdgeId?: string | null;
  /** Names the list for screen readers, e.g. "Lineage map of “Plan the release”". */
  label: string;
  /** Called as a session of the map opens, e.g. to close a drawer. */
  onOpen?(): void;
}

/**
 * A lineage as a small graph: each session a node in time order, each continuation an edge with
 * its reason and time, a branch in a lane of its own, the current head highlighted. Every
 * session is a link in an ordered list; the lines are drawing only, so a screen reader reads
 * the list, each item saying where it came from.
 */
export function LineageMap({ nodes, headId, currentSessionId, inspectedEdgeId, label, onOpen }: LineageMapProps) {
  const { rows, lanes } = useMemo(() => {
    const sessions: MapSession[] = [...nodes]
      .sort((a, b) => a.session.createdAt.localeCompare(b.session.createdAt) || a.depth - b.depth)
      .map((node) => ({ sessionId: node.session.id, parentId: node.edge?.predecessor.id ?? null, node }));
    return layoutLineageMap(sessions, headId);
  }, [nodes, headId]);
  const graphWidth = lanes * LANE;

  return (
    <ol className="lineage-map" aria-label={label} style={{ ['--lineage-graph-width' as string]: `${graphWidth}px` }}>
      {rows.map((row) => (
        <LineageMapRow
          key={row.node.sessionId}
          row={row}
          graphWidth={graphWidth}
          head={row.node.sessionId === headId}
          current={row.node.sessionId === currentSessionId}
          inspected={inspectedEdgeId != null && row.node.node.edge?.id === inspectedEdgeId}
          onOpen={onOpen}
        />
      ))}
    </ol>
  );
}

interface LineageMapRowProps {
  row: MapRow<MapSession>;
  graphWidth: number;
  head: boolean;
  current: boolean;
  inspected: boolean;
  onOpen?(): void;
}

function LineageMapRow({ row, graphWidth, head, current, inspected, onOpen }: LineageMapRowProps) {
  const { session, edge } = row.node.node;
  const own = laneX(row.lane);
  const classes = ['lineage-map-row', head && 'lineage-map-head', current && 'lineage-map-current', inspected && 'lineage-map-inspected'];
  return (
    <li className={classes.filter(Boolean).join(' ')}>
      <svg className="lineage-map-graph" width={graphWidth} aria-hidden="true" focusable="false">
        {row.through.map((lane) => (
          <line key={`through-${lane}`} x1={laneX(lane)} x2={laneX(lane)} y1="0" y2="100%" />
        ))}
        {row.fromAbove && <line x1={own} x2={own} y1="0" y2={DOT_Y} />}
        {row.toBelow.map((lane) => (
          <line key={`below-${lane}`} x1={own} y1={DOT_Y} x2={laneX(lane)} y2="100%" />
        ))}
        <circle cx={own} cy={DOT_Y} r={head ? 5.5 : 4} />
      </svg>
      <Link to={`/sessions/${session.id}`} className="lineage-map-session" aria-current={current ? 'page' : undefined} onClick={onOpen}>
        <span className="lineage-map-title">{session.title}</span>
        {head && <span className="lineage-map-tag">latest</span>}
      </Link>
      <span className="lineage-map-edge">
        {edge ? (
          <>
            <span className="visually-hidden">
              {row.branch ? 'Branched' : 'Continued'} from “{edge.predecessor.title}”: {transitionInWords(edge.reason, edge.actor)}{' '}
            </span>
            <span aria-hidden="true">
              {row.branch && 'Branch · '}
              {reasonInBrief(edge.reason)} ·{' '}
            </span>
            <time dateTime={edge.createdAt} title={formatDateTime(edge.createdAt)}>
              {formatWhen(edge.createdAt)}
            </time>
            {inspected && <span className="lineage-map-tag">this handoff</span>}
          </>
        ) : (
          <>
            Started{' '}
            <time dateTime={session.createdAt} title={formatDateTime(session.createdAt)}>
              {formatWhen(session.createdAt)}
            </time>
          </>
        )}
      </span>
    </li>
  );
}
