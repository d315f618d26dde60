import { useId } from 'react';
import type { ContinuationApproval } from '../../gql/graphql';
import { useSetContinuationApproval } from './useContinuationProposal';

interface ApprovalToggleProps {
  sessionId: string;
  approval: ContinuationApproval;
}

/** Whether the agent asks before it continues this session in a new one. */
export function ApprovalToggle({ sessionId, approval }: ApprovalToggleProps) {
  const id = useId();
  const { setApproval, saving, error } = useSetContinuationApproval();
  return (
    <span className="approval-toggle">
      <input
        id={id}
        type="checkbox"
        checked={approval === 'ASK'}
        disabled={saving}
        onChange={(event) => void setApproval(sessionId, event.target.checked ? 'ASK' : 'AUTOMATIC').catch(() => undefined)}
      />
      <label htmlFor={id}>Ask me before the agent continues in a new session</label>
      {error && (
        <span className="notice notice-error" role="alert">
          The setting could not be saved ({error.message}).
        </span>
      )}
    </span>
  );
}
