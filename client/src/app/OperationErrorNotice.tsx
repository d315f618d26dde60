import { graphql } from '../gql';
import type { OperationErrorNoticeFieldsFragment } from '../gql/graphql';

/** The parts of an OperationError a person needs; every union that can refuse spreads this. */
export const OperationErrorNoticeFields = graphql(`
  fragment OperationErrorNoticeFields on OperationError {
    code
    message
    details {
      path
      message
    }
  }
`);

export type OperationError = OperationErrorNoticeFieldsFragment;

interface OperationErrorNoticeProps {
  lead: string;
  error: OperationError;
  /** False inside a live region that already announces it, politely rather than as an alert. */
  alert?: boolean;
}

/** A refusal from the server, with each input problem next to its path. */
export function OperationErrorNotice({ lead, error, alert = true }: OperationErrorNoticeProps) {
  return (
    <div className="notice notice-error" role={alert ? 'alert' : undefined}>
      <p>
        {lead} {error.message}
      </p>
      {error.details.length > 0 && (
        <ul>
          {error.details.map((detail) => (
            <li key={`${detail.path.join('.')}:${detail.message}`}>
              <code>{detail.path.join('.')}</code>: {detail.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
