export const RunKind = { TURN: 'TURN', DELEGATED: 'DELEGATED' } as const;
export type RunKind = (typeof RunKind)[keyof typeof RunKind];

export const RunStatus = {
  QUEUED: 'QUEUED',
  RUNNING: 'RUNNING',
  SUCCEEDED: 'SUCCEEDED',
  FAILED: 'FAILED',
  CANCELLED: 'CANCELLED',
} as const;
export type RunStatus = (typeof RunStatus)[keyof typeof RunStatus];

/** Statuses of a run that has not settled yet. */
export const ACTIVE_RUN_STATUSES: RunStatus[] = [RunStatus.QUEUED, RunStatus.RUNNING];

/** The result a delegating session gets for delegated work cancelled before it answered. */
export function cancelledDelegation(produced: string): string {
  return produced ? `The delegated work was cancelled before it finished. What it had produced: ${produced}` : 'The delegated work was cancelled before it produced anything.';
}
