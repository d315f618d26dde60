import { formatCount } from '../../app/format';
import type { ContinuationSourceInput, ManifestItemRowFragment } from '../../gql/graphql';
import { SOURCE_KIND_IN_WORDS } from '../handoff/manifest-sources';

/** The longest relevance continueSession accepts for a cited source. */
const MAX_RELEVANCE_CHARS = 500;

/** Identifies a recommendation across previews of the same request: its exact address. */
export function recommendationKey(item: ManifestItemRowFragment): string {
  return [item.kind, item.sessionId, item.eventId ?? item.fromEventId, item.toEventId, item.url, item.version, item.blockId, item.path, item.cid].join(':');
}

/** A kept recommendation as a cited source: the same address, its reason as the relevance. */
export function recommendationAsSource(item: ManifestItemRowFragment): ContinuationSourceInput {
  const relevance = item.relevance.slice(0, MAX_RELEVANCE_CHARS);
  switch (item.kind) {
    case 'SESSION_EVENT':
      return { kind: 'SESSION_EVENT', sessionId: item.sessionId, eventId: item.eventId, relevance };
    case 'RESOURCE':
      return { kind: 'RESOURCE', url: item.url, version: item.version, blockId: item.blockId, relevance };
    case 'MEMORY':
      return { kind: 'MEMORY', path: item.path, cid: item.cid, relevance };
    default:
      return { kind: 'SESSION_EVENTS', sessionId: item.sessionId, fromEventId: item.fromEventId, toEventId: item.toEventId, relevance };
  }
}

interface RecommendedSourcesChoiceProps {
  /** The RECOMMENDED items of the assisted preview, best first. */
  recommendations: ManifestItemRowFragment[];
  dropped: ReadonlySet<string>;
  onToggle(key: string): void;
}

/** Keep or drop each source assisted selection recommends, with the reason it was chosen. */
export function RecommendedSourcesChoice({ recommendations, dropped, onToggle }: RecommendedSourcesChoiceProps) {
  return (
    <fieldset className="recommendations">
      <legend>Recommended sources</legend>
      {recommendations.length === 0 ? (
        <p className="hint">Nothing recommended fits the budget and adds to what the new session already starts with.</p>
      ) : (
        <>
          <p className="hint">
            Chosen for the purpose and current request. Dropping one cites the ones you keep instead: the handoff then
            lists them as cited by you, and nothing takes the dropped one’s place.
          </p>
          <ul>
            {recommendations.map((item) => {
              const key = recommendationKey(item);
              return (
                <li key={key}>
                  <label>
                    <input type="checkbox" checked={!dropped.has(key)} onChange={() => onToggle(key)} /> Keep{' '}
                    <span className="recommendation-reason prose">{item.relevance}</span>
                  </label>
                  <span className="hint">
                    {SOURCE_KIND_IN_WORDS[item.kind]} · {formatCount(item.tokenCount, 'token')}
                    {typeof item.score === 'number' && ` · score ${item.score.toFixed(2)}`}
                  </span>
                </li>
              );
            })}
          </ul>
        </>
      )}
    </fieldset>
  );
}
