import { Client as SseClient, createClient as createSseClient } from 'graphql-sse';
import { Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';

export interface GraphQLResponse<T> {
  status: number;
  data?: T;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}

/** Speaks GraphQL over HTTP and WebSocket to a running server, as a third-party client would. */
export class GraphQLTestClient {
  constructor(
    readonly baseUrl: string,
    readonly apiKey: string | null,
  ) {}

  async request<T>(query: string, variables: Record<string, unknown> = {}): Promise<GraphQLResponse<T>> {
    const response = await fetch(`${this.baseUrl}/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {}),
      },
      body: JSON.stringify({ query, variables }),
    });
    return { status: response.status, ...((await response.json()) as Omit<GraphQLResponse<T>, 'status'>) };
  }

  /** The data of a response that must have no errors. */
  async data<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
    const response = await this.request<T>(query, variables);
    if (response.errors?.length || !response.data) {
      throw new Error(`Unexpected GraphQL errors: ${JSON.stringify(response.errors)}`);
    }
    return response.data;
  }

  /** A graphql-ws client authenticated with this client's key. */
  websocket(): Client {
    return createClient({
      url: `${this.baseUrl.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {},
      retryAttempts: 0,
      lazy: true,
    });
  }

  /** A graphql-sse client (distinct connections mode) authenticated with this client's key. */
  sse(): SseClient {
    return createSseClient({
      url: `${this.baseUrl}/graphql/stream`,
      headers: (): Record<string, string> => (this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {}),
      retryAttempts: 0,
    });
  }
}

/** Collects what one subscription yields; `next(n)` waits for the n-th value without sleeping. */
export function collect<T>(client: Pick<Client, 'subscribe'> | Pick<SseClient, 'subscribe'>, query: string, variables: Record<string, unknown>) {
  const values: T[] = [];
  const errors: unknown[] = [];
  let waiters: (() => void)[] = [];
  const wake = () => {
    const current = waiters;
    waiters = [];
    current.forEach((resolve) => resolve());
  };
  let completed = false;
  const unsubscribe = client.subscribe<T>(
    { query, variables },
    {
      next: (value) => {
        if (value.errors) errors.push(...value.errors);
        if (value.data) values.push(value.data as T);
        wake();
      },
      error: (error) => {
        errors.push(error);
        wake();
      },
      complete: () => {
        completed = true;
        wake();
      },
    },
  );
  return {
    values,
    errors,
    get completed() {
      return completed;
    },
    unsubscribe,
    /** Resolves once `count` values arrived, or an error or completion ends the wait. */
    async until(count: number, timeoutMs = 5000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (values.length < count && errors.length === 0 && !completed) {
        if (Date.now() > deadline) throw new Error(`Timed out waiting for ${count} subscription values`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
    },
  };
}
