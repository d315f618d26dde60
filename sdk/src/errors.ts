/** A GraphQL error as the server sends it: `extensions.code` says what kind of failure it is. */
export interface GraphQLErrorShape {
  message: string;
  path?: readonly (string | number)[];
  extensions?: { code?: string; [key: string]: unknown };
}

/**
 * The request did not produce data: the server was unreachable, answered with an HTTP error, or
 * answered with GraphQL errors (such as UNAUTHENTICATED). Expected failures of a mutation are not
 * transport errors: they are an `OperationError` in its result.
 */
export class TransportError extends Error {
  override readonly name = 'TransportError';
  /** The HTTP status, when the server answered over HTTP. */
  readonly status: number | undefined;
  /** The GraphQL errors the server answered with; empty when it sent none. */
  readonly errors: readonly GraphQLErrorShape[];

  constructor(message: string, options: { status?: number; errors?: readonly GraphQLErrorShape[]; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.status = options.status;
    this.errors = options.errors ?? [];
  }

  /** The first error's `extensions.code`, e.g. `UNAUTHENTICATED`; undefined when there is none. */
  get code(): string | undefined {
    return this.errors[0]?.extensions?.code;
  }
}

/** A subscription's failure, as graphql-ws reports it (errors, an Error or a close event), as a TransportError. */
export function subscriptionError(failure: unknown): TransportError {
  if (failure instanceof TransportError) return failure;
  if (Array.isArray(failure)) {
    const errors = failure as GraphQLErrorShape[];
    return new TransportError(errors.map((error) => error.message).join('; ') || 'The subscription failed.', { errors });
  }
  if (failure instanceof Error) return new TransportError(failure.message, { cause: failure });
  const close = failure as { code?: number; reason?: string } | null;
  if (close && typeof close.code === 'number') {
    return new TransportError(`The WebSocket closed (${close.code}${close.reason ? `: ${close.reason}` : ''}).`, { cause: failure });
  }
  return new TransportError('The subscription failed.', { cause: failure });
}
