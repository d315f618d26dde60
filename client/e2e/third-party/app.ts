/**
 * A third party's frontend on an origin of its own, as its authors would write it: an urql client
 * with its defaults (queries go as GET) and graphql-ws for subscriptions, and graphql-sse's own
 * client. Each runs a query, a mutation and a subscription against the API; the page exposes
 * the runs as `window.thirdParty`.
 */
import { Client, cacheExchange, fetchExchange, subscriptionExchange } from '@urql/core';
import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient } from 'graphql-ws';

const VIEWER = 'query Viewer { viewer { id } }';
const CREATE = 'mutation Create($title: String!) { createSession(input: { title: $title }) { id } }';
const POST = 'mutation Post($s: ID!, $t: String!) { postMessage(input: { sessionId: $s, text: $t }) { __typename } }';
const EVENTS = 'subscription Events($s: ID!) { sessionEvents(sessionId: $s) { seq text } }';

export interface ThirdPartyRun {
  viewerId: string;
  sessionId: string;
  /** The text of the first event the subscription delivered. */
  firstEventText: string;
}

/** Resolves with the first value a subscription delivers, after `start` ran. */
function firstOf<T>(subscribe: (next: (value: T) => void, fail: (error: unknown) => void) => () => void, start: () => Promise<unknown>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const stop = subscribe(
      (value) => {
        stop();
        resolve(value);
      },
      (error) => reject(error instanceof Error ? error : new Error(JSON.stringify(error))),
    );
    // Gives the subscription time to reach the server before the event it waits for is written.
    setTimeout(() => void start().catch(reject), 500);
  });
}

async function withUrql(api: string, key: string): Promise<ThirdPartyRun> {
  const socket = createWsClient({ url: `${api.replace(/^http/, 'ws')}/graphql`, connectionParams: { authorization: `Bearer ${key}` } });
  const client = new Client({
    url: `${api}/graphql`,
    fetchOptions: { headers: { authorization: `Bearer ${key}` } },
    exchanges: [
      cacheExchange,
      fetchExchange,
      subscriptionExchange({
        forwardSubscription: (request) => ({
          subscribe: (sink) => ({ unsubscribe: socket.subscribe({ ...request, query: request.query ?? '' }, sink) }),
        }),
      }),
    ],
  });
  const viewer = await client.query(VIEWER, {}).toPromise();
  if (viewer.error) throw viewer.error;
  const created = await client.mutation(CREATE, { title: 'From urql' }).toPromise();
  if (created.error) throw created.error;
  const sessionId = created.data.createSession.id as string;
  const event = await firstOf<{ sessionEvents: { text: string } }>(
    (next, fail) => client.subscription(EVENTS, { s: sessionId }).subscribe((result) => (result.error ? fail(result.error) : next(result.data))).unsubscribe,
    () => client.mutation(POST, { s: sessionId, t: 'hello from urql' }).toPromise(),
  );
  await socket.dispose();
  return { viewerId: viewer.data.viewer.id, sessionId, firstEventText: event.sessionEvents.text };
}

async function withGraphqlSse(api: string, key: string): Promise<ThirdPartyRun> {
  const client = createSseClient({ url: `${api}/graphql/stream`, headers: { authorization: `Bearer ${key}` } });
  const once = <T>(query: string, variables: Record<string, unknown>) =>
    firstOf<T>(
      (next, fail) => client.subscribe<T>({ query, variables }, { next: (result) => (result.errors ? fail(result.errors) : next(result.data as T)), error: fail, complete: () => undefined }),
      async () => undefined,
    );
  const viewer = await once<{ viewer: { id: string } }>(VIEWER, {});
  const created = await once<{ createSession: { id: string } }>(CREATE, { title: 'From graphql-sse' });
  const sessionId = created.createSession.id;
  const event = await firstOf<{ sessionEvents: { text: string } }>(
    (next, fail) => client.subscribe<{ sessionEvents: { text: string } }>({ query: EVENTS, variables: { s: sessionId } }, { next: (result) => (result.errors ? fail(result.errors) : next(result.data!)), error: fail, complete: () => undefined }),
    () => once(POST, { s: sessionId, t: 'hello from graphql-sse' }),
  );
  client.dispose();
  return { viewerId: viewer.viewer.id, sessionId, firstEventText: event.sessionEvents.text };
}

(window as unknown as { thirdParty: unknown }).thirdParty = { withUrql, withGraphqlSse };
