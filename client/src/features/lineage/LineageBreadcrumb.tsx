import { useState } from 'react';
import { Link } from 'react-router';
import { graphql } from '../../gql';
import type { LineageBreadcrumbFragment } from '../../gql/graphql';
import './lineage.css';

export const LineageBreadcrumbFragmentDocument = graphql(`
  fragment LineageBreadcrumb on Session {
    id
    lineage {
      id
      title
    }
  }
`);

/** Past this many steps, the middle of the path folds into one button. */
const STEPS_SHOWN = 4;

/**
 * The path from the lineage's origin to this session, each step a link. A long path shows its
 * origin and its last steps, and unfolds on request. Nothing for a session with no predecessor.
 */
export function LineageBreadcrumb({ session }: { session: LineageBreadcrumbFragment }) {
  const [unfolded, setUnfolded] = useState(false);
  const path = session.lineage;
  if (path.length < 2) return null;
  const folded = !unfolded && path.length > STEPS_SHOWN ? path.slice(1, path.length - (STEPS_SHOWN - 2)) : [];
  const shown = folded.length > 0 ? [path[0], ...path.slice(path.length - (STEPS_SHOWN - 2))] : path;

  return (
    <nav aria-label="Lineage" className="lineage-breadcrumb">
      <ol className="lineage-path">
        {shown.map((step, index) => (
          <li key={step.id}>
            {index === 1 && folded.length > 0 && (
              <>
                <button type="button" className="inline-action lineage-path-fold" onClick={() => setUnfolded(true)}>
                  <span aria-hidden="true">…</span>
                  <span className="visually-hidden">Show {folded.length} more sessions of the path</span>
                </button>
                <span className="lineage-path-separator" aria-hidden="true">
                  →
                </span>
              </>
            )}
            {step.id === session.id ? (
              <span aria-current="page">{step.title}</span>
            ) : (
              <Link to={`/sessions/${step.id}`}>{step.title}</Link>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
