import { randomBytes } from 'node:crypto';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { startTestServer, TestServer, testRedisUrl } from '../helpers/test-server';
import { createKey } from '../helpers/api-keys';

/** Two servers sharing limits need Redis and a shared database. */
const onPostgres = process.env.TEST_DATABASE_URL ? describe : describe.skip;

/** A client address of its own per test, as a trusted proxy reports it: counts never mix between tests or runs. */
const newAddress = () => `198.51.100.${randomBytes(1)[0]}, 10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;

function ask(baseUrl: string, apiKey: string, forwardedFor: string) {
  return fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}`, 'x-forwarded-for': forwardedFor },
    body: JSON.stringify({ query: '{ viewer { id } }' }),
  });
}

/** The address the nearest trusted proxy saw: the last one it appended, with one proxy trusted. */
const seenAs = (forwardedFor: string) => forwardedFor.split(',').at(-1)!.trim();

describe('throttling on one process', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ trustedProxies: 1, rateLimits: { signInFailures: 5, signInWindowSeconds: 30, keyRequests: 8, keyWindowSeconds: 30 } });
  });
  afterAll(() => server.close());

  it('answers 429 with Retry-After and RATE_LIMITED after the configured failed sign-ins from one address, even with a good key then', async () => {
    const address = newAddress();
    for (let attempt = 0; attempt < 5; attempt += 1) expect((await ask(server.url, 'sck_wrong', address)).status).toBe(401);
    const refused = await ask(server.url, 'sck_wrong', address);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ errors: [{ extensions: { code: 'RATE_LIMITED' } }] });
    expect((await ask(server.url, server.admin.apiKey!, address)).status).toBe(429);
    expect((await ask(server.url, server.admin.apiKey!, newAddress())).status).toBe(200);
  });

  it('takes the address from X-Forwarded-For only as far as TRUST_PROXY says', async () => {
    const address = newAddress();
    for (let attempt = 0; attempt < 6; attempt += 1) await ask(server.url, 'sck_wrong', `203.0.113.${attempt}, ${seenAs(address)}`);
    // The left part is whatever the client wrote: only the trusted proxy's entry counts.
    expect((await ask(server.url, server.admin.apiKey!, `192.0.2.1, ${seenAs(address)}`)).status).toBe(429);
  });

  it("answers 429 past a key's request rate, for that key only", async () => {
    const owner = await server.newAccount('busy');
    const key = await createKey(owner, { scopes: ['READ'] });
    const statuses: number[] = [];
    for (let request = 0; request < 9; request += 1) statuses.push((await ask(server.url, key.secret, newAddress())).status);
    expect(statuses.slice(0, 8).every((status) => status === 200)).toBe(true);
    expect(statuses[8]).toBe(429);
    const other = await createKey(owner, { scopes: ['READ'] });
    expect((await ask(server.url, other.secret, newAddress())).status).toBe(200);
  });

  it('closes a WebSocket signing in from a throttled address with code 4429', async () => {
    const address = newAddress();
    for (let attempt = 0; attempt < 6; attempt += 1) await ask(server.url, 'sck_wrong', address);
    const closed = await new Promise<number>((resolve) => {
      const client = createClient({
        url: `${server.url.replace(/^http/, 'ws')}/graphql`,
        webSocketImpl: class extends WebSocket {
          constructor(url: string, protocols: string[]) {
            super(url, protocols, { headers: { 'x-forwarded-for': address } });
          }
        },
        connectionParams: { authorization: `Bearer ${server.admin.apiKey}` },
        retryAttempts: 0,
        on: { closed: (event) => resolve((event as { code: number }).code) },
      });
      client.subscribe({ query: '{ viewer { id } }' }, { next: () => undefined, error: () => undefined, complete: () => undefined });
    });
    expect(closed).toBe(4429);
  });
});

onPostgres('throttling across two processes with Redis', () => {
  let first: TestServer;
  let second: TestServer;
  const limits = { signInFailures: 6, signInWindowSeconds: 30, keyRequests: 0, keyWindowSeconds: 30 };

  beforeAll(async () => {
    first = await startTestServer({ redisUrl: testRedisUrl(), trustedProxies: 1, rateLimits: limits });
    second = await startTestServer({ redisUrl: testRedisUrl(), trustedProxies: 1, rateLimits: limits });
  }, 60_000);
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('counts failed sign-ins of one address on both processes together', async () => {
    const address = newAddress();
    for (let attempt = 0; attempt < 3; attempt += 1) expect((await ask(first.url, 'sck_wrong', address)).status).toBe(401);
    for (let attempt = 0; attempt < 3; attempt += 1) expect((await ask(second.url, 'sck_wrong', address)).status).toBe(401);
    const refused = await ask(first.url, 'sck_wrong', address);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).not.toBeNull();
    expect((await ask(second.url, 'sck_wrong', address)).status).toBe(429);
  });
});
