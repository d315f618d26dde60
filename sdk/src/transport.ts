import type { TransportError } from './errors.js';
import type { TypedDocument } from './operations.js';

/** Receives a subscription's results; `error` ends it. */
export interface SubscriptionSink<TData> {
  next(data: TData): void;
  error(error: TransportError): void;
  complete?(): void;
}

/** How the SDK's helpers reach the API: operations over HTTP, subscriptions over WebSocket. */
export interface Transport {
  /**
   * Runs a query or mutation over HTTP.
   * @returns the operation's `data`.
   * @throws TransportError when the server is unreachable, answers with an HTTP error or with GraphQL errors.
   */
  request<TData, TVariables>(document: TypedDocument<TData, TVariables>, variables: TVariables): Promise<TData>;
  request<TData = Record<string, unknown>>(document: string, variables?: Record<string, unknown>): Promise<TData>;
  /**
   * Starts a subscription over WebSocket. The socket is opened on first use. Once it was open, it
   * is reopened after every drop (a restart, a network change) and the subscription sent again
   * with its variables read anew. A socket that cannot be opened at all (no server at the URL, a
   * wrong path, a refused key) ends the subscription with `sink.error`, as soon as the platform
   * reports the failure.
   * @returns a function that stops the subscription.
   */
  subscribe<TData, TVariables>(document: TypedDocument<TData, TVariables>, variables: TVariables, sink: SubscriptionSink<TData>): () => void;
}
