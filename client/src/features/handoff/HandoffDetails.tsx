import { graphql } from '../../gql';
import type { HandoffDetailsFragment } from '../../gql/graphql';

export const HandoffDetailsFragmentDocument = graphql(`
  fragment HandoffDetails on Handoff {
    purpose
    currentRequest
    establishedFacts
    decisions
    openQuestions
    nextActions
    cautions
  }
`);

const LISTS = [
  ['establishedFacts', 'Established facts'],
  ['decisions', 'Decisions'],
  ['openQuestions', 'Open questions'],
  ['nextActions', 'Next actions'],
  ['cautions', 'Cautions'],
] as const;

/** The handoff as written: orientation for the successor, not a record of what happened. */
export function HandoffDetails({ handoff }: { handoff: HandoffDetailsFragment }) {
  return (
    <dl className="handoff-details">
      <div>
        <dt>Purpose</dt>
        <dd className="prose">{handoff.purpose}</dd>
      </div>
      <div>
        <dt>Current request</dt>
        <dd className="prose">{handoff.currentRequest}</dd>
      </div>
      {LISTS.map(([field, label]) => (
        <div key={field}>
          <dt>{label}</dt>
          <dd>
            {handoff[field].length === 0 ? (
              <span className="hint">None recorded</span>
            ) : (
              <ul>
                {handoff[field].map((entry, index) => (
                  <li key={`${index}:${entry}`} className="prose">
                    {entry}
                  </li>
                ))}
              </ul>
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}
