import { useQuery } from '@apollo/client/react';
import { Link } from 'react-router';
import { formatCount, formatTime } from '../../app/format';
import { graphql } from '../../gql';
import type { TransitionDetailsQuery as TransitionDetailsResult } from '../../gql/graphql';
import type { TransitionCardData } from './continuation-events';
import { transitionInWords } from './continuation-words';
import './continuation.css';

/** What the card says was carried, counted from the manifest exactly as the inspector lists it. */
export const TransitionDetailsQuery = graphql(`
  query TransitionDetails($edgeId: ID!) {
    continuationEdge(id: $edgeId) {
      id
      actor
      handoff {
        decisions
        establishedFacts
        openQuestions
      }
      manifest {
        id
        items {
          status
        }
        context {
          sections {
            kind
          }
        }
        transferredState {
          plan
          pendingRunIds
        }
      }
    }
  }
`);

type TransitionDetails = NonNullable<TransitionDetailsResult['continuationEdge']>;

/** "a", "a and b", "a, b and c" */
function joinWords(parts: string[]): string {
  return parts.length < 2 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/**
 * "the current request, 2 decisions and 3 sources (1 included, 2 omitted)": the handoff's lists
 * count only when the handoff itself fit the budget, and the sources are every item of the
 * manifest, as the inspector lists them.
 */
function carriedInWords({ handoff, manifest }: TransitionDetails): string {
  const parts = ['the current request'];
  if (manifest.context.sections.some((section) => section.kind === 'HANDOFF')) {
    if (handoff.decisions.length) parts.push(formatCount(handoff.decisions.length, 'decision'));
    if (handoff.establishedFacts.length) parts.push(formatCount(handoff.establishedFacts.length, 'fact'));
    if (handoff.openQuestions.length) parts.push(formatCount(handoff.openQuestions.length, 'open question'));
  }
  if (manifest.transferredState.plan === 'CARRY') parts.push('the plan');
  if (manifest.transferredState.pendingRunIds.length) parts.push(formatCount(manifest.transferredState.pendingRunIds.length, 'pending run'));
  const count = (status: string) => manifest.items.filter((item) => item.status === status).length;
  const outcomes = [`${count('INCLUDED')} included`];
  if (count('OMITTED')) outcomes.push(`${count('OMITTED')} omitted`);
  if (count('UNAVAILABLE')) outcomes.push(`${count('UNAVAILABLE')} unavailable`);
  if (manifest.items.length) parts.push(`${formatCount(manifest.items.length, 'source')} (${outcomes.join(', ')})`);
  return joinWords(parts);
}

interface TransitionCardProps {
  card: TransitionCardData;
  /** When the predecessor was continued (the card event's time). */
  createdAt: string;
}

/** The durable end of a predecessor: where the conversation went, why, by whom, and what it carried. */
export function TransitionCard({ card, createdAt }: TransitionCardProps) {
  const { data, error } = useQuery(TransitionDetailsQuery, { variables: { edgeId: card.edgeId } });
  const details = data?.continuationEdge;
  const title = `Continued in “${card.successorTitle}”`;
  return (
    <article className={`transition-card transition-card-${card.reason.toLowerCase().replaceAll('_', '-')}`} aria-label={title}>
      <p className="transition-card-title">{title}</p>
      <p className="transition-card-meta">
        {transitionInWords(card.reason, details?.actor ?? card.actor)} · <time dateTime={createdAt}>{formatTime(createdAt)}</time>
      </p>
      {/* Until the manifest is read, the server's own summary; it counts only the cited sources. */}
      <p className="transition-card-carried">Carried {details ? carriedInWords(details) : error ? card.carried : '…'}.</p>
      <p className="continuation-actions">
        <Link to={`/sessions/${card.successorId}`} className="button button-primary">
          Open continuation
        </Link>
        <Link to={`/continuations/${card.edgeId}`} className="button">
          Inspect handoff
        </Link>
      </p>
    </article>
  );
}
