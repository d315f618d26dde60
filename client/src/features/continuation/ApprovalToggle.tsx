import type { ContinuationApproval } from '../../gql/graphql';
import { useSetContinuationApproval } from './useContinuationProposal';

interface ApprovalToggleProps {
  sessionId: string;
  approval: ContinuationApproval;
}

/** Whether the agent asks before it continues this session in a new one. */
export function ApprovalToggle({ sessionId, approval }: ApprovalToggleProps) {
  const { setApproval, saving, error } = useSetContinuationApproval();
  return (
    <div className="approval-toggle">
      <label className="checkbox-field">
        <input
          type="checkbox"
          checked={approval === 'ASK'}
          disabled={saving}
          onChange={(event) => void setApproval(sessionId, event.target.checked ? 'ASK' : 'AUTOMATIC').catch(() => undefined)}
        />{' '}
        Ask me before the agent continues in a new session
      </label>
      {error && (
        <p className="notice notice-error" role="alert">
          The setting could not be saved ({error.message}).
        </p>
      )}
    </div>
  );
}
