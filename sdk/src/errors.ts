/** A GraphQL error as the server sends it: `extensions.code` says what kind of failure it is. */
export interface GraphQLErrorShape {
  message: string;
  path?: readonly (string | number)[];
  extensions?: { code?: string; [key: string]: unknown };
}

/**
 * The request did not produce data: the server was unreachable, answered with an HTTP error, or
 * answered with GraphQL errors. Their `extensions.code` (see `code`) is one of the API's codes:
 * `UNAUTHENTICATED` for a missing or unknown key, `INVALID_INPUT` for values the server refuses
 * (an empty title, a query with nothing to find), `NOT_FOUND` for what the account does not have,
 * `FORBIDDEN` for what the key may not do, and `BAD_USER_INPUT` or `GRAPHQL_VALIDATION_FAILED` for
 * a document or variables that do not fit the schema. Expected failures of a mutation are not
 * transport errors: they are an `OperationError` in its result (codes such as SESSION_CONTINUED).
 */
export class TransportError extends Error {
  override readonly name = 'TransportError';
  /** The HTTP status, when the server answered over HTTP. */
  readonly status: number | undefined;
  /** The GraphQL errors the server answered with; empty when it sent none. */
  readonly errors: readonly GraphQLErrorShape[];
  private readonly ownCode: string | undefined;

  constructor(message: string, options: { status?: number; errors?: readonly GraphQLErrorShape[]; code?: string; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.status = options.status;
    this.errors = options.errors ?? [];
    this.ownCode = options.code;
  }

  /**
   * The API's code for the failure: the first error's `extensions.code`, e.g. `INVALID_INPUT`, or
   * `UNAUTHENTICATED` for a WebSocket the server closed for the key; undefined when there is none.
   */
  get code(): string | undefined {
    return this.ownCode ?? this.errors[0]?.extensions?.code;
  }
}

/** Close codes graphql-ws servers use when they refuse a connection. */
const FORBIDDEN = 4403;
const UNAUTHORIZED = 4401;

/**
 * A subscription's failure, as graphql-ws reports it (GraphQL errors, an Error, a close event or
 * the socket's error event), as a TransportError naming the socket's URL where that helps.
 */
export function subscriptionError(failure: unknown, url?: string): TransportError {
  if (failure instanceof TransportError) return failure;
  if (Array.isArray(failure)) {
    const errors = failure as GraphQLErrorShape[];
    return new TransportError(errors.map((error) => error.message).join('; ') || 'The subscription failed.', { errors });
  }
  if (failure instanceof Error) return new TransportError(failure.message, { cause: failure });
  const event = failure as { code?: unknown; reason?: unknown; type?: unknown; message?: unknown } | null;
  const where = url ? ` to ${url}` : '';
  if (event && typeof event.code === 'number') {
    if (event.code === FORBIDDEN || event.code === UNAUTHORIZED) {
      return new TransportError(`The server refused the API key for the WebSocket${where}.`, { code: 'UNAUTHENTICATED', cause: failure });
    }
    return new TransportError(`The WebSocket${where} closed (${event.code}${event.reason ? `: ${event.reason}` : ''}).`, { cause: failure });
  }
  if (event && event.type === 'error') {
    // Browsers give no reason; the ws package gives the network's (ECONNREFUSED, a 404 answer).
    const reason = typeof event.message === 'string' && event.message ? `: ${event.message}` : '';
    return new TransportError(`The WebSocket${where} could not be opened${reason}.`, { cause: failure });
  }
  return new TransportError('The subscription failed.', { cause: failure });
}
