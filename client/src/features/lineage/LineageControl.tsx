import { useId } from 'react';
import { Link } from 'react-router';
import { graphql } from '../../gql';
import type { LineageControlFragment } from '../../gql/graphql';
import { hasBranches } from './lineage-layout';
import { LineageTree } from './LineageTree';
import './lineage.css';

export const LineageControlFragmentDocument = graphql(`
  fragment LineageControl on Session {
    id
    lineage {
      id
      title
    }
    lineageTree {
      depth
      session {
        id
        title
      }
      edge {
        id
        predecessor {
          id
        }
      }
    }
  }
`);

/**
 * Where this session sits in its lineage: the path from the origin to here, and once someone
 * branched, a tree of every session of the lineage. Nothing for a session with no lineage.
 */
export function LineageControl({ session }: { session: LineageControlFragment }) {
  const treeTitleId = useId();
  const branched = hasBranches(session.lineageTree);
  if (session.lineage.length < 2 && !branched) return null;

  return (
    <div className="lineage-control">
      {session.lineage.length > 1 && (
        <nav aria-label="Lineage">
          <ol className="lineage-path">
            {session.lineage.map((step) => (
              <li key={step.id}>
                {step.id === session.id ? (
                  <span aria-current="page">{step.title}</span>
                ) : (
                  <Link to={`/sessions/${step.id}`}>{step.title}</Link>
                )}
              </li>
            ))}
          </ol>
        </nav>
      )}
      {branched && (
        <details className="lineage-tree-details">
          <summary id={treeTitleId}>
            Lineage tree · {session.lineageTree.length} sessions, branched
          </summary>
          <LineageTree
            labelledBy={treeTitleId}
            currentSessionId={session.id}
            nodes={session.lineageTree.map((node) => ({
              sessionId: node.session.id,
              parentId: node.edge?.predecessor.id ?? null,
              depth: node.depth,
              title: node.session.title,
            }))}
          />
        </details>
      )}
    </div>
  );
}
