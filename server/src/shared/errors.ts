/** Error codes of expected failures; the GraphQL layer maps them to the contract's `ErrorCode`. */
export const ErrorCode = {
  INVALID_INPUT: 'INVALID_INPUT',
  NOT_FOUND: 'NOT_FOUND',
  FORBIDDEN: 'FORBIDDEN',
  SESSION_CONTINUED: 'SESSION_CONTINUED',
  TURN_IN_PROGRESS: 'TURN_IN_PROGRESS',
  PENDING_RUNS_NOT_TRANSFERRED: 'PENDING_RUNS_NOT_TRANSFERRED',
  SOURCE_NOT_FOUND: 'SOURCE_NOT_FOUND',
  SOURCE_NOT_ACCESSIBLE: 'SOURCE_NOT_ACCESSIBLE',
  IDEMPOTENCY_KEY_REUSED: 'IDEMPOTENCY_KEY_REUSED',
  CYCLE: 'CYCLE',
  RATE_LIMITED: 'RATE_LIMITED',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** One problem with one part of the input, addressed by its path (e.g. `["input", "text"]`). */
export interface ErrorDetail {
  path: string[];
  message: string;
}

/** An expected failure: nothing was written. */
export interface OperationFailure {
  code: ErrorCode;
  message: string;
  details: ErrorDetail[];
  /** With SESSION_CONTINUED: the session the conversation moved to. */
  currentContinuationId?: string;
  /** With a projection budget too small: the least it needs, for a caller that may ask again with it. */
  leastTokenBudget?: number;
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: OperationFailure };

export function succeed<T>(value: T): Outcome<T> {
  return { ok: true, value };
}

export function fail<T = never>(
  code: ErrorCode,
  message: string,
  details: ErrorDetail[] = [],
): Outcome<T> {
  return { ok: false, error: { code, message, details } };
}

/** The things a caller can name that may not exist, or may be another account's (then answered the same). */
export type NotFoundThing = 'session' | 'event' | 'run' | 'manifest' | 'proposal' | 'resource' | 'attachment';

/** The one wording of a missing thing: another account's is answered exactly as if it did not exist. */
export function notFoundFailure(thing: NotFoundThing, path: string[]): OperationFailure {
  const message = `No such ${thing}.`;
  return { code: ErrorCode.NOT_FOUND, message, details: [{ path, message }] };
}

/** {@link notFoundFailure} as an outcome. */
export function notFound<T = never>(thing: NotFoundThing, path: string[]): Outcome<T> {
  return { ok: false, error: notFoundFailure(thing, path) };
}
