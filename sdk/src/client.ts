import { createClient as createWebSocketClient, type Client as WebSocketClient } from 'graphql-ws';
import { TransportError, subscriptionError, type GraphQLErrorShape } from './errors.js';
import { followConversation, type FollowHandlers } from './follow.js';
import { streamRun } from './stream-run.js';
import type { Transport } from './transport.js';
import {
  API_KEYS,
  CONTINUE_SESSION,
  CREATE_API_KEY,
  REVOKE_API_KEY,
  CREATE_SESSION,
  LINEAGE,
  POST_MESSAGE,
  SEARCH_EVENTS,
  SESSIONS,
  type TypedDocument,
} from './operations.js';
import type {
  ApiKey,
  ContinueSessionInput,
  CreateApiKeyInput,
  CreateApiKeyResult,
  ContinueSessionResult,
  CreateSessionInput,
  EventSearchConnection,
  LineageEntry,
  ListSessionsArgs,
  PostMessageInput,
  PostMessageResult,
  SearchEventsArgs,
  Session,
  SessionConnection,
} from './types.js';

export interface ClientOptions {
  /**
   * The server's URL, e.g. `http://127.0.0.1:4000`, or its GraphQL endpoint,
   * `http://127.0.0.1:4000/graphql`: both name the same API. Subscriptions use the same endpoint
   * over WebSocket (`ws:` or `wss:`).
   */
  url: string;
  /** The account's API key, sent as a Bearer token over HTTP and WebSocket. */
  apiKey: string;
  /** A WebSocket constructor where the platform has none, e.g. the `ws` package's on Node 20. */
  webSocketImpl?: unknown;
  /** The fetch to use; the platform's by default. */
  fetch?: typeof fetch;
}

export interface Client extends Transport {
  /**
   * A new ROOT session.
   * @throws TransportError, also for input the server refuses (`code` INVALID_INPUT, e.g. an empty title).
   */
  createSession(input: CreateSessionInput): Promise<Session>;
  /**
   * A page of the account's sessions, newest first (50 unless `first` says otherwise). Pass
   * `pageInfo.endCursor` as `after` to read the next page while `pageInfo.hasNextPage`.
   * @throws TransportError, with code INVALID_INPUT for a refused page size or cursor.
   */
  listSessions(args?: ListSessionsArgs): Promise<SessionConnection>;
  /**
   * Appends a user message.
   * @returns the stored event, or an OperationError (such as SESSION_CONTINUED, naming where the conversation went).
   * @throws TransportError
   */
  postMessage(input: PostMessageInput): Promise<PostMessageResult>;
  /**
   * Continues a session in a new successor, atomically and idempotently.
   * @returns the edge, the successor and its initial run, or an OperationError (nothing was written).
   * @throws TransportError
   */
  continueSession(input: ContinueSessionInput): Promise<ContinueSessionResult>;
  /**
   * The session's lineage, origin first and the session last.
   * @returns null when the account has no such session.
   * @throws TransportError
   */
  lineage(sessionId: string): Promise<LineageEntry[] | null>;
  /**
   * Ranked full-text search over event text.
   * @throws TransportError, with code INVALID_INPUT for a refused query (empty, or a SESSION search without its session) or NOT_FOUND for a session the account does not have.
   */
  searchEvents(args: SearchEventsArgs): Promise<EventSearchConnection>;
  /**
   * Streams a conversation's events in order, moving to the successor whenever it is continued.
   * A socket that cannot be opened, a session that is not readable or a refused key end it
   * through `handlers.onError`.
   * @returns a function that stops following.
   */
  followConversation(sessionId: string, handlers: FollowHandlers): () => void;
  /**
   * A run's answer as it is produced, as text chunks that join to `Run.output`: from what the run
   * produced so far, then each new piece, ending when the run ends (at once, with the whole answer,
   * for a run that already ended). A dropped socket is reopened and the stream resumes where it was.
   * Leaving the loop early (`break`) stops the subscription.
   * @throws TransportError from the iteration, when the run is not the account's (NOT_FOUND) or the subscription fails.
   */
  streamRun(runId: string): AsyncGenerator<string, void, undefined>;
  /**
   * A new key of the account (ADMIN scope): its scopes, optionally the sessions it is limited to
   * (their lineages, as they continue) and when it expires. A backend mints one per end user this
   * way and hands only that key to the user's browser.
   * @returns the key and its secret, shown only here; or an OperationError (nothing was made).
   * @throws TransportError, with code FORBIDDEN naming the scope for a key that lacks ADMIN.
   */
  createApiKey(input: CreateApiKeyInput): Promise<CreateApiKeyResult>;
  /**
   * The account's keys, newest first, revoked ones included (ADMIN scope).
   * @throws TransportError
   */
  listApiKeys(): Promise<ApiKey[]>;
  /**
   * Revokes a key at once, on every server process; its open subscriptions close (code 4403).
   * @returns the revoked key, or null when the account has no such key.
   * @throws TransportError
   */
  revokeApiKey(id: string): Promise<ApiKey | null>;
  /** Closes the WebSocket; requests over HTTP keep working. */
  dispose(): Promise<void>;
}

/** The GraphQL endpoint of a server named by its URL or by the endpoint itself; a TypeError for a URL that is not http(s). */
function graphqlEndpoint(url: string): string {
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {
    // Named below, with what a URL looks like.
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw new TypeError(`createClient: url must be the server's http(s) URL, such as http://127.0.0.1:4000 (got "${url}").`);
  }
  const path = parsed.pathname.replace(/\/+$/, '');
  parsed.pathname = path.endsWith('/graphql') ? path : `${path}/graphql`;
  return parsed.href;
}

/** The wait before reopening a dropped socket: doubling from 1 s up to 30 s, spread so that clients of a restarted server do not return at once. */
function reconnectWait(retries: number): Promise<void> {
  const ms = Math.min(30_000, 1_000 * 2 ** retries) + Math.floor(Math.random() * 2_700 + 300);
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Close codes after which reopening cannot help: the server refused the key. */
const REFUSED_KEY = new Set([4401, 4403]);

/** A client of the API at `options.url`. Opens no connection until it is used. */
export function createClient(options: ClientOptions): Client {
  const endpoint = graphqlEndpoint(options.url);
  const socketUrl = endpoint.replace(/^http/, 'ws');
  const authorization = `Bearer ${options.apiKey}`;
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  let socket: WebSocketClient | null = null;
  // Whether a socket was ever accepted: only then is a failure to reopen one worth waiting out.
  let accepted = false;

  const webSocket = () =>
    (socket ??= createWebSocketClient({
      url: socketUrl,
      webSocketImpl: options.webSocketImpl,
      connectionParams: { authorization },
      // A follower outlives restarts and dropped networks; dispose() ends the retries.
      retryAttempts: Infinity,
      shouldRetry: (failure) => accepted && !REFUSED_KEY.has((failure as { code?: number } | null)?.code ?? 0),
      retryWait: reconnectWait,
      on: { connected: () => (accepted = true) },
    }));

  function request<TData, TVariables>(document: TypedDocument<TData, TVariables>, variables: TVariables): Promise<TData>;
  function request<TData = Record<string, unknown>>(document: string, variables?: Record<string, unknown>): Promise<TData>;
  async function request(document: string | { query: string }, variables?: unknown): Promise<unknown> {
    const query = typeof document === 'string' ? document : document.query;
    let response: Response;
    try {
      response = await fetchImpl(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json', authorization },
        body: JSON.stringify({ query, variables }),
      });
    } catch (cause) {
      throw new TransportError(`The server at ${endpoint} could not be reached.`, { cause });
    }
    const body = (await response.json().catch(() => null)) as { data?: unknown; errors?: GraphQLErrorShape[] } | null;
    if (body?.errors?.length) {
      throw new TransportError(body.errors.map((error) => error.message).join('; '), { status: response.status, errors: body.errors });
    }
    if (!response.ok || body?.data == null) {
      throw new TransportError(`The server answered ${response.status} without data.`, { status: response.status });
    }
    return body.data;
  }

  const client: Client = {
    request,
    subscribe(document, variables, sink) {
      return webSocket().subscribe<never>(
        { query: document.query, variables: variables as Record<string, unknown> },
        {
          next: (result) => {
            if (result.errors?.length) sink.error(subscriptionError(result.errors));
            else sink.next(result.data as never);
          },
          error: (failure) => sink.error(subscriptionError(failure, socketUrl)),
          complete: () => sink.complete?.(),
        },
      );
    },
    createSession: (input) => request(CREATE_SESSION, { input }).then((data) => data.createSession),
    listSessions: (args = {}) => request(SESSIONS, args).then((data) => data.sessions),
    postMessage: (input) => request(POST_MESSAGE, { input }).then((data) => data.postMessage),
    continueSession: (input) => request(CONTINUE_SESSION, { input }).then((data) => data.continueSession),
    lineage: (sessionId) => request(LINEAGE, { sessionId }).then((data) => data.session?.lineage ?? null),
    searchEvents: (args) => request(SEARCH_EVENTS, args).then((data) => data.searchEvents),
    createApiKey: (input) => request(CREATE_API_KEY, { input }).then((data) => data.createApiKey),
    listApiKeys: () => request(API_KEYS, {}).then((data) => data.apiKeys),
    revokeApiKey: (id) => request(REVOKE_API_KEY, { id }).then((data) => data.revokeApiKey),
    followConversation: (sessionId, handlers) => followConversation(client, sessionId, handlers),
    streamRun: (runId) => streamRun(client, runId),
    async dispose() {
      await socket?.dispose();
      socket = null;
      accepted = false;
    },
  };
  return client;
}
