import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useCommands } from '../../app/commands';
import { isModalOpen } from '../../app/keyboard';
import type { RunStateFragment } from '../../gql/graphql';
import { isInProgress } from './useAgentActivity';
import { useCancelRun } from './useCancelRun';
import { useRetryRun } from './useRetryRun';

interface RunStatusProps {
  /** The session's newest turn; null before its first message. */
  currentTurn: RunStateFragment | null;
  /** A refused retry means this view is behind the server: read the runs again. */
  onOutdated(): void;
}

/** Esc stops the answer being written, unless something on top (a dialog, a menu) takes the key. */
function useEscapeToStop(stop: (() => void) | null) {
  const latest = useRef(stop);
  useEffect(() => {
    latest.current = stop;
  });
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== 'Escape' || event.defaultPrevented || !latest.current || isModalOpen()) return;
      event.preventDefault();
      latest.current();
    }
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
}

/**
 * The current turn: "Thinking…" and a Stop button (or Esc) while it is queued or running; its
 * error and a way to run it again when it failed; nothing once it answered (the answer is in the
 * transcript then, as it was while it was being written).
 */
export function RunStatus({ currentTurn, onOutdated }: RunStatusProps) {
  const { retryRun, retrying } = useRetryRun();
  const { cancelRun, cancelling } = useCancelRun();
  // Tied to the run it is about: a newer turn makes it moot.
  const [problem, setProblem] = useState<{ runId: string; text: string } | null>(null);
  const thinking = currentTurn !== null && isInProgress(currentTurn);
  const failed = currentTurn?.status === 'FAILED' ? currentTurn : null;

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

  // Esc and the palette stop the run in progress through the latest `stop`.
  const latestStop = useRef(stop);
  useEffect(() => {
    latestStop.current = stop;
  });
  const stopRun = useCallback((id: string) => void latestStop.current(id), []);
  const runId = thinking && !cancelling ? currentTurn.id : null;
  useEscapeToStop(runId ? () => stopRun(runId) : null);
  const commands = useMemo(
    () => (runId ? [{ id: 'stop', label: 'Stop the answer', keywords: 'cancel halt', shortcut: 'Esc', run: () => stopRun(runId) }] : []),
    [runId, stopRun],
  );
  useCommands(commands);

  return (
    <div className="run-status">
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
        <button type="button" className="button" disabled={cancelling} onClick={() => void stop(currentTurn.id)} aria-keyshortcuts="Escape">
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
