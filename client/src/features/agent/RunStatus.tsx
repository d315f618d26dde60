import { useState } from 'react';
import type { RunStateFragment } from '../../gql/graphql';
import { Markdown } from '../markdown/Markdown';
import { isInProgress } from './useAgentActivity';
import { useCancelRun } from './useCancelRun';
import { useRetryRun } from './useRetryRun';
import { useRunOutput } from './useRunOutput';

interface RunStatusProps {
  /** The session's newest turn; null before its first message. */
  currentTurn: RunStateFragment | null;
  /** A refused retry means this view is behind the server: read the runs again. */
  onOutdated(): void;
}

/**
 * The current turn: "Thinking…" and a Stop button while it is queued or running, with its answer
 * as it is produced; its error and a way to run it again when it failed; nothing once it answered
 * (the answer is in the transcript then). The answer being produced is not a live region: the
 * transcript announces it once, finished.
 */
export function RunStatus({ currentTurn, onOutdated }: RunStatusProps) {
  const { retryRun, retrying } = useRetryRun();
  const { cancelRun, cancelling } = useCancelRun();
  // Tied to the run it is about: a newer turn makes it moot.
  const [problem, setProblem] = useState<{ runId: string; text: string } | null>(null);
  const thinking = currentTurn !== null && isInProgress(currentTurn);
  const failed = currentTurn?.status === 'FAILED' ? currentTurn : null;
  const streaming = useRunOutput(currentTurn?.status === 'RUNNING' ? currentTurn.id : null);

  async function retry(runId: string) {
    setProblem(null);
    const outcome = await retryRun(runId);
    if (outcome.kind === 'refused') {
      setProblem({ runId, text: `The server refused to retry: ${outcome.message}` });
      onOutdated();
    } else if (outcome.kind === 'failed') {
      setProblem({ runId, text: `Retrying failed: ${outcome.message}` });
    }
  }

  async function stop(runId: string) {
    setProblem(null);
    const refusal = await cancelRun(runId);
    if (refusal) {
      setProblem({ runId, text: `Stopping failed: ${refusal}` });
      onOutdated();
    }
  }

  return (
    <div className="run-status">
      {thinking && streaming && (
        <div className="run-status-answer" aria-label="The answer so far">
          <Markdown text={streaming} />
        </div>
      )}
      {/* Always rendered: screen readers announce changes inside a live region, not one that appears with them. */}
      <p role="status" aria-live="polite" className={failed ? 'run-status-text run-status-failed' : 'run-status-text'}>
        {thinking && (
          <>
            <span className="thinking-indicator" aria-hidden="true" />
            Thinking…
          </>
        )}
        {failed && `The assistant could not answer${failed.error ? `: ${failed.error}` : '.'}`}
      </p>
      {thinking && (
        <button type="button" className="button" disabled={cancelling} onClick={() => void stop(currentTurn.id)}>
          {cancelling ? 'Stopping…' : 'Stop'}
        </button>
      )}
      {failed && (
        <button type="button" className="button" disabled={retrying} onClick={() => void retry(failed.id)}>
          {retrying ? 'Retrying…' : 'Retry'}
        </button>
      )}
      {problem && problem.runId === currentTurn?.id && (
        <p className="notice notice-error run-status-problem" role="alert">
          {problem.text}
        </p>
      )}
    </div>
  );
}
