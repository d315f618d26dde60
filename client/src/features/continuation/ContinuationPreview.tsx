import { useId, type ReactNode } from 'react';
import { formatCount } from '../../app/format';
import { OperationErrorNotice } from '../../app/OperationErrorNotice';
import { ManifestItemList } from '../handoff/ManifestItemList';
import { TokenBudgetBar } from '../handoff/TokenBudgetBar';
import type { ProjectionPreviewResult, ProjectionPreviewState } from './useProjectionPreview';

type ProjectionPreview = Extract<ProjectionPreviewResult, { __typename: 'ProjectionPreview' }>;

interface ContinuationPreviewProps {
  preview: ProjectionPreviewState;
  /** Names the sessions the sources come from, in words. */
  sessionNames: Record<string, string>;
  /** Choices about the sources, kept in place while the preview they change is computed. */
  children?: ReactNode;
}

/** "a", "a and b", "a, b and c" */
function joinWords(parts: string[]): string {
  return parts.length < 2 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

function summaryOf({ items, tokenCost, tokenBudget }: ProjectionPreview): string {
  const count = (status: ProjectionPreview['items'][number]['status']) => items.filter((item) => item.status === status).length;
  const outcomes = [`include ${count('INCLUDED')} of ${formatCount(items.length, 'source')}`];
  if (count('OMITTED') > 0) outcomes.push(`omit ${count('OMITTED')}`);
  if (count('UNAVAILABLE') > 0) outcomes.push(`skip ${count('UNAVAILABLE')} unavailable`);
  return `Would ${joinWords(outcomes)}, using ${tokenCost.toLocaleString()} of ${formatCount(tokenBudget, 'token')}.`;
}

/**
 * What the successor would start from if the person confirmed now: the sources carried and
 * omitted and the budget they fill, or the refusal continueSession would answer.
 */
export function ContinuationPreview({ preview, sessionNames, children }: ContinuationPreviewProps) {
  const titleId = useId();
  const { result, failure, pending } = preview;
  return (
    <section className="continue-preview" aria-labelledby={titleId} aria-busy={pending}>
      <div className="continue-preview-header">
        <h3 id={titleId}>Preview of the new session</h3>
        {pending && result && <span className="hint">Updating…</span>}
      </div>
      {/* Always rendered: screen readers announce changes inside a live region, not one that appears with them. */}
      <div className="continue-preview-summary" aria-live="polite" aria-atomic="true">
        {failure ? (
          <p className="notice notice-error">The preview could not be computed: {failure}</p>
        ) : result?.__typename === 'OperationError' ? (
          <OperationErrorNotice lead="As it stands, the session would not be continued." error={result} alert={false} />
        ) : result ? (
          <p>{summaryOf(result)}</p>
        ) : (
          <p className="hint">
            {pending
              ? 'Computing the preview…'
              : 'Fill in the title, purpose and current request to see what the new session would start with.'}
          </p>
        )}
      </div>
      {children}
      {result?.__typename === 'ProjectionPreview' && (
        <div className="continue-preview-details">
          <TokenBudgetBar tokenBudget={result.tokenBudget} tokenCost={result.tokenCost} sections={result.context.sections} />
          <ManifestItemList items={result.items} sessionNames={sessionNames} citedBy="you" />
        </div>
      )}
    </section>
  );
}
