import { ErrorCode, ErrorDetail, OperationFailure, Outcome, fail } from '../../../shared/errors';

/** Thrown inside the transaction to roll it back with an expected failure. */
export class Refused extends Error {
  constructor(readonly failure: OperationFailure) {
    super(failure.message);
  }
}

export function refuse(code: ErrorCode, message: string, details: ErrorDetail[] = []): never {
  throw new Refused({ code, message, details });
}

export function notFound<T>(): Outcome<T> {
  return fail(ErrorCode.NOT_FOUND, 'No such session.', [{ path: ['input', 'sessionId'], message: 'No such session.' }]);
}
