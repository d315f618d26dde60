import { Link, useParams } from 'react-router';
import { formatCount, formatDateTime } from '../../app/format';
import { TopBar } from '../../app/shell/TopBar';
import { MissingPage } from '../../app/shell/MissingPage';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import type { HandoffInspectionQuery, PlanTransfer } from '../../gql/graphql';
import { actorInWords, transitionInWords } from '../continuation/continuation-words';
import { LineageMap } from '../lineage/LineageMap';
import { HandoffDetails } from './HandoffDetails';
import { ManifestItemList } from './ManifestItemList';
import { SECTION_IN_WORDS, TokenBudgetBar } from './TokenBudgetBar';
import { useHandoffInspection } from './useHandoffInspection';
import './handoff.css';

type InspectedEdge = NonNullable<HandoffInspectionQuery['continuationEdge']>;
type Manifest = InspectedEdge['manifest'];

const PLAN_IN_WORDS: Record<PlanTransfer, string> = {
  CARRY: 'carried to the successor',
  CLOSE: 'closed in the predecessor',
  OMIT: 'left with the predecessor',
};

/** The route `/continuations/:edgeId`. */
export function HandoffInspectorRoute() {
  const { edgeId } = useParams();
  return edgeId ? <HandoffInspectorPage edgeId={edgeId} /> : null;
}

/** The readable handoff beside the exact manifest it was compiled with. */
export function HandoffInspectorPage({ edgeId }: { edgeId: string }) {
  const { edge, loading, error } = useHandoffInspection(edgeId);
  useDocumentTitle(edge ? `Handoff: “${edge.predecessor.title}” → “${edge.successor.title}”` : 'Handoff');

  if (loading) {
    return (
      <p className="page-state" role="status">
        Loading handoff…
      </p>
    );
  }
  if (!edge) return <MissingPage notFound="Continuation not found" failed="The handoff could not be loaded" error={error} />;

  const { manifest } = edge;
  const sessionNames = {
    [edge.predecessor.id]: `the predecessor “${edge.predecessor.title}”`,
    [edge.successor.id]: `the successor “${edge.successor.title}”`,
  };

  return (
    <div className="page inspector">
      <TopBar>
        <h1>Handoff</h1>
      </TopBar>
      <div className="page-body">
      <header className="inspector-header">
        <p className="inspector-route">
          From <Link to={`/sessions/${edge.predecessor.id}`}>“{edge.predecessor.title}”</Link> to{' '}
          <Link to={`/sessions/${edge.successor.id}`}>“{edge.successor.title}”</Link>
        </p>
        <p className="session-facts">
          <span>{transitionInWords(edge.reason, edge.actor)}</span>
          <time dateTime={edge.createdAt}>{formatDateTime(edge.createdAt)}</time>
        </p>
      </header>
      {edge.successor.lineageTree.length > 1 && (
        <section aria-labelledby="inspector-lineage-title" className="inspector-panel inspector-lineage">
          <h2 id="inspector-lineage-title">Lineage map</h2>
          <LineageMap
            nodes={edge.successor.lineageTree}
            headId={edge.successor.origin.currentContinuation.id}
            inspectedEdgeId={edge.id}
            label={`Lineage map of “${edge.successor.origin.title}”`}
          />
        </section>
      )}
      <div className="inspector-columns">
        <section aria-labelledby="handoff-title" className="inspector-panel">
          <h2 id="handoff-title">What the agent handed over</h2>
          <p className="hint">Orientation written for the successor; the manifest beside it is the record.</p>
          <HandoffDetails handoff={edge.handoff} />
        </section>
        <section aria-labelledby="manifest-title" className="inspector-panel">
          <h2 id="manifest-title">Projection manifest</h2>
          <TokenBudgetBar
            tokenBudget={manifest.tokenBudget}
            tokenCost={manifest.tokenCost}
            sections={manifest.context.sections}
          />
          <h3>Sources</h3>
          <ManifestItemList items={manifest.items} sessionNames={sessionNames} citedBy={actorInWords(edge.actor)} />
          <h3>Transferred state</h3>
          <TransferredState state={manifest.transferredState} />
          <h3>Lineage block</h3>
          <pre className="lineage-block">{manifest.lineageBlock}</pre>
          <h3>Identity of this manifest</h3>
          <ManifestIdentity manifest={manifest} />
          <ProjectedContext manifest={manifest} />
        </section>
      </div>
      </div>
    </div>
  );
}

function TransferredState({ state }: { state: Manifest['transferredState'] }) {
  const none = <span className="hint">none</span>;
  return (
    <dl className="facts-list">
      <div>
        <dt>Plan</dt>
        <dd>
          {PLAN_IN_WORDS[state.plan]}
          {state.planRevision !== null && state.planRevision !== undefined && ` (revision ${state.planRevision})`}
        </dd>
      </div>
      <div>
        <dt>Pending runs</dt>
        <dd>{state.pendingRunIds.length ? state.pendingRunIds.map((id) => <code key={id}>{id}</code>) : none}</dd>
      </div>
      <div>
        <dt>Pinned tools</dt>
        <dd>{state.pinnedTools.length ? state.pinnedTools.join(', ') : none}</dd>
      </div>
      <div>
        <dt>Pinned resources</dt>
        <dd>
          {state.pinnedResources.length
            ? state.pinnedResources.map((ref) => (
                <code key={`${ref.url}@${ref.version}#${ref.blockId ?? ''}`}>
                  {ref.url}@{ref.version}
                  {ref.blockId && `#${ref.blockId}`}
                </code>
              ))
            : none}
        </dd>
      </div>
    </dl>
  );
}

function ManifestIdentity({ manifest }: { manifest: Manifest }) {
  return (
    <dl className="facts-list">
      <div>
        <dt>Manifest hash</dt>
        <dd>
          <code className="hash">{manifest.hash}</code>
        </dd>
      </div>
      <div>
        <dt>Compiler</dt>
        <dd>
          <code>{manifest.compilerVersion}</code>
        </dd>
      </div>
      <div>
        <dt>Model (token counts)</dt>
        <dd>
          <code>{manifest.modelVersion}</code>
        </dd>
      </div>
      <div>
        <dt>Manifest id</dt>
        <dd>
          <code>{manifest.id}</code>
        </dd>
      </div>
      <div>
        <dt>Compiled</dt>
        <dd>
          <time dateTime={manifest.createdAt}>{formatDateTime(manifest.createdAt)}</time>
        </dd>
      </div>
    </dl>
  );
}

/** The exact text the successor started from, section by section. */
function ProjectedContext({ manifest }: { manifest: Manifest }) {
  return (
    <details className="projected-context">
      <summary>Starting context as compiled ({formatCount(manifest.context.tokenCount, 'token')})</summary>
      <ol>
        {manifest.context.sections.map((section, index) => (
          <li key={`${index}:${section.kind}`}>
            <h4>
              {SECTION_IN_WORDS[section.kind]} <span className="hint">{formatCount(section.tokenCount, 'token')}</span>
            </h4>
            <pre>{section.text}</pre>
          </li>
        ))}
      </ol>
    </details>
  );
}
