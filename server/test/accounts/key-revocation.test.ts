import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { startTestServer, TestServer } from '../helpers/test-server';
import { collect, GraphQLTestClient } from '../helpers/graphql-client';
import { createKey, revokeKey } from '../helpers/api-keys';
import { createSession, subscribed } from '../helpers/continuations';

/** Two servers on one PostgreSQL database, delivering across processes, need a database server. */
const onPostgres = process.env.TEST_DATABASE_URL ? describe : describe.skip;

/** A subscription with `apiKey` on `baseUrl`, and when (and with which code) its socket closed. */
async function openSubscription(baseUrl: string, apiKey: string, sessionId: string) {
  let closed: { code: number; at: number } | null = null;
  let connected!: () => void;
  const connection = new Promise<void>((resolve) => (connected = resolve));
  const client = createClient({
    url: `${baseUrl.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${apiKey}` },
    retryAttempts: 0,
    on: { connected: () => connected(), closed: (event) => (closed = { code: (event as { code: number }).code, at: Date.now() }) },
  });
  client.subscribe({ query: 'subscription ($s: ID!) { sessionEvents(sessionId: $s) { id } }', variables: { s: sessionId } }, { next: () => undefined, error: () => undefined, complete: () => undefined });
  await connection;
  return {
    /** Resolves with the close once the socket closed, or rejects after `withinMs`. */
    async closedWithin(withinMs: number): Promise<{ code: number; at: number }> {
      const deadline = Date.now() + withinMs;
      while (!closed) {
        if (Date.now() > deadline) throw new Error(`The socket stayed open past ${withinMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return closed;
    },
    dispose: () => client.dispose(),
  };
}

describe('revoking and expiring a key', () => {
  let server: TestServer;
  let owner: GraphQLTestClient;
  let sessionId: string;

  beforeAll(async () => {
    server = await startTestServer();
    owner = await server.newAccount('revoker');
    sessionId = await createSession(owner, 'watched');
  });
  afterAll(() => server.close());

  it('closes the open subscriptions of a revoked key within a second, with code 4403', async () => {
    const key = await createKey(owner, { scopes: ['READ'] });
    const subscription = await openSubscription(server.url, key.secret, sessionId);
    try {
      await revokeKey(owner, key.id);
      const revokedAt = Date.now();
      const closed = await subscription.closedWithin(1000);
      expect(closed.code).toBe(4403);
      expect(closed.at - revokedAt).toBeLessThan(1000);
    } finally {
      await subscription.dispose();
    }
  });

  it('ends its open Server-Sent Events streams within a second', async () => {
    const key = await createKey(owner, { scopes: ['READ'] });
    const stream = collect(key.client.sse(), 'subscription ($s: ID!) { sessionEvents(sessionId: $s) { id } }', { s: sessionId });
    await subscribed(server, 'SESSION_EVENT', sessionId);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect({ completed: stream.completed, errors: stream.errors }).toEqual({ completed: false, errors: [] });
    await revokeKey(owner, key.id);
    const revokedAt = Date.now();
    while (!stream.completed && stream.errors.length === 0) {
      if (Date.now() - revokedAt > 1000) throw new Error('The stream stayed open past a second');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(Date.now() - revokedAt).toBeLessThan(1000);
  });

  it('closes them when the key expires', async () => {
    const expiresAt = Date.now() + 1200;
    const key = await createKey(owner, { scopes: ['READ'], expiresAt: new Date(expiresAt).toISOString() });
    const subscription = await openSubscription(server.url, key.secret, sessionId);
    try {
      const closed = await subscription.closedWithin(3000);
      expect(closed.code).toBe(4403);
      expect(closed.at - expiresAt).toBeLessThan(1000);
    } finally {
      await subscription.dispose();
    }
  });
});

onPostgres('revoking a key with two server processes', () => {
  let first: TestServer;
  let second: TestServer;

  beforeAll(async () => {
    first = await startTestServer();
    second = await startTestServer();
  }, 60_000);
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('refuses the key on the other process at once and closes its subscription there within a second', async () => {
    const owner = await first.newAccount('two processes');
    const sessionId = await createSession(owner, 'watched elsewhere');
    const key = await createKey(owner, { scopes: ['READ'] });
    const elsewhere = new GraphQLTestClient(second.url, key.secret);
    expect((await elsewhere.request('{ viewer { id } }')).status).toBe(200);
    const subscription = await openSubscription(second.url, key.secret, sessionId);
    try {
      await revokeKey(owner, key.id);
      const revokedAt = Date.now();
      const closed = await subscription.closedWithin(1000);
      expect(closed.code).toBe(4403);
      expect(closed.at - revokedAt).toBeLessThan(1000);
      expect((await elsewhere.request('{ viewer { id } }')).status).toBe(401);
    } finally {
      await subscription.dispose();
    }
  });
});
