import type { ErrorCode } from '../gql/graphql';

/** The parts of an OperationError a person needs; every mutation's union selects at least these. */
export interface OperationError {
  code: ErrorCode;
  message: string;
  details: { path: string[]; message: string }[];
}

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
