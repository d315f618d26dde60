import { ContextMeter, ContinuationHint } from './ContextMeter';
import { RunStatus } from './RunStatus';
import type { AgentActivityState } from './useAgentActivity';
import './agent.css';

interface AgentActivityProps {
  /** The session's agent state (an ACTIVE session: only those take messages). */
  activity: AgentActivityState;
  /** Opens the "Continue in new session" dialog; absent while it cannot be opened. */
  onContinue?: () => void;
}

/** Beside the composer: the assistant's current turn with Stop, how full its context is, and advice to continue. */
export function AgentActivity({ activity, onContinue }: AgentActivityProps) {
  const { currentTurn, contextUsage, continuationSuggested, refresh, error } = activity;
  return (
    <div className="agent-activity">
      <div className="agent-activity-row">
        <RunStatus currentTurn={currentTurn} onOutdated={() => void refresh()} />
        {contextUsage && <ContextMeter usage={contextUsage} />}
      </div>
      {error && (
        <p className="hint" role="status">
          The assistant's progress cannot be shown ({error.message}).
        </p>
      )}
      {continuationSuggested && onContinue && <ContinuationHint onContinue={onContinue} />}
    </div>
  );
}
