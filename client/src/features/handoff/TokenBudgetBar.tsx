import { useId } from 'react';
import { formatCount } from '../../app/format';
import type { ContextSectionKind } from '../../gql/graphql';
import './handoff.css';

export const SECTION_IN_WORDS: Record<ContextSectionKind, string> = {
  SYSTEM: 'Control and safety',
  IDENTITY: 'Identity and grants',
  STATE: 'Structured state',
  LINEAGE: 'Lineage block',
  INITIATING_MESSAGE: 'Initiating message',
  HANDOFF: 'Handoff',
  PINNED_SOURCE: 'Pinned sources',
  RECENT_EXCHANGE: 'Recent exchange',
  EXCERPT: 'Excerpts',
  OMITTED_HANDLES: 'Handles of omitted sources',
};

interface TokenBudgetBarProps {
  tokenBudget: number;
  tokenCost: number;
  sections: { kind: ContextSectionKind; tokenCount: number }[];
}

function percentOf(part: number, whole: number): number {
  return whole <= 0 ? 0 : Math.min(100, (part / whole) * 100);
}

/**
 * The successor's starting context against its budget, one segment per section in the order the
 * compiler filled them. The legend carries every number; the bar only shows proportions.
 */
export function TokenBudgetBar({ tokenBudget, tokenCost, sections }: TokenBudgetBarProps) {
  const used = Math.round(percentOf(tokenCost, tokenBudget));
  const captionId = useId();
  return (
    <figure className="budget" aria-labelledby={captionId}>
      <figcaption id={captionId}>
        {tokenCost.toLocaleString()} of {formatCount(tokenBudget, 'token')} used ({used}%)
      </figcaption>
      <div className="budget-bar" aria-hidden="true">
        {sections.map((section, index) => (
          <span
            key={`${index}:${section.kind}`}
            className={`budget-segment budget-segment-${section.kind.toLowerCase().replaceAll('_', '-')}`}
            style={{ width: `${percentOf(section.tokenCount, tokenBudget)}%` }}
          />
        ))}
      </div>
      <ul className="budget-legend">
        {sections.map((section, index) => (
          <li key={`${index}:${section.kind}`}>
            <span
              className={`budget-swatch budget-segment-${section.kind.toLowerCase().replaceAll('_', '-')}`}
              aria-hidden="true"
            />
            {SECTION_IN_WORDS[section.kind]}: {formatCount(section.tokenCount, 'token')}
          </li>
        ))}
        <li>
          <span className="budget-swatch budget-swatch-unused" aria-hidden="true" />
          Unused: {formatCount(Math.max(0, tokenBudget - tokenCost), 'token')}
        </li>
      </ul>
    </figure>
  );
}
