import { ContextMeter, ContinuationHint } from './ContextMeter';
import { RunStatus } from './RunStatus';
import { useAgentActivity } from './useAgentActivity';
import './agent.css';

interface AgentActivityProps {
  /** An ACTIVE session: only those take messages, so only those have turns to show. */
  sessionId: string;
  /** Opens the "Continue in new session" dialog; absent while it cannot be opened. */
  onContinue?: () => void;
}

/** Beside the composer: the assistant's current turn, how full its context is, and advice to continue. */
export function AgentActivity({ sessionId, onContinue }: AgentActivityProps) {
  const { currentTurn, contextUsage, continuationSuggested, refresh, error } = useAgentActivity(sessionId);
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
