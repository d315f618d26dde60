import { unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError, GraphQLFormattedError } from 'graphql';
import { OperationFailure, Outcome } from '../errors';
import { OperationError } from './operation-error.type';

/** A GraphQL error for a failure where the API has no error union (queries, plain mutations). */
export function failureError(failure: OperationFailure): GraphQLError {
  const { code, details, currentContinuationId } = failure;
  return new GraphQLError(failure.message, { extensions: { code, details, ...(currentContinuationId ? { currentContinuationId } : {}) } });
}

export function unauthenticatedError(): GraphQLError {
  return new GraphQLError('Missing or unknown API key: send "Authorization: Bearer <api key>".', {
    extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } },
  });
}

/** The value of a successful outcome, or its failure thrown as a GraphQL error. */
export function valueOrThrow<T>(outcome: Outcome<T>): T {
  if (!outcome.ok) throw failureError(outcome.error);
  return outcome.value;
}

/** Maps an outcome to a payload union member: the success type, or `OperationError`. */
export function toPayload<T, P>(outcome: Outcome<T>, success: (value: T) => P): P | OperationError {
  return outcome.ok ? success(outcome.value) : OperationError.from(outcome.error);
}

/**
 * Formats an error for the wire. Errors raised on purpose (GraphQL errors: ours, validation,
 * parsing, variables) keep their message and code. Anything else becomes "Internal server error"
 * with code INTERNAL_SERVER_ERROR (and the `requestId` its log line carries) unless `development`
 * is set. Stack traces are never included outside development. Logging is the caller's part: it
 * knows the request.
 */
export function formatGraphQLError(
  formatted: GraphQLFormattedError,
  error: unknown,
  development: boolean,
): GraphQLFormattedError {
  if (development) return formatted;
  if (!isUnexpectedError(formatted, error)) {
    const { stacktrace: _stacktrace, ...extensions } = formatted.extensions ?? {};
    return { ...formatted, extensions };
  }
  const requestId = formatted.extensions?.requestId;
  return {
    message: 'Internal server error',
    locations: formatted.locations,
    path: formatted.path,
    extensions: { code: 'INTERNAL_SERVER_ERROR', ...(requestId ? { requestId } : {}) },
  };
}

/** Whether an error was not raised on purpose (a bug, a failing database): it is logged and masked. */
export function isUnexpectedError(formatted: GraphQLFormattedError, error: unknown): boolean {
  return !(unwrapResolverError(error) instanceof GraphQLError) || formatted.extensions?.code === 'INTERNAL_SERVER_ERROR';
}
