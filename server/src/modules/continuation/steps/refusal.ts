import { ErrorCode, ErrorDetail, OperationFailure } from '../../../shared/errors';

/** Thrown inside the transaction to roll it back with an expected failure. */
export class Refused extends Error {
  constructor(readonly failure: OperationFailure) {
    super(failure.message);
  }
}

export function refuse(code: ErrorCode, message: string, details: ErrorDetail[] = []): never {
  throw new Refused({ code, message, details });
}

/** Rolls the transaction back with a failure made elsewhere (e.g. `notFoundFailure`). */
export function refuseWith(failure: OperationFailure): never {
  throw new Refused(failure);
}
