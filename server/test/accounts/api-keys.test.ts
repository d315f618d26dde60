import { startTestServer, TestServer } from '../helpers/test-server';
import { GraphQLTestClient } from '../helpers/graphql-client';
import { CREATE_KEY, createKey, revokeKey } from '../helpers/api-keys';
import { createSession } from '../helpers/continuations';

const KEYS = 'query { apiKeys { id name prefix scopes sessionIds expiresAt lastUsedAt revokedAt } }';

describe('API keys as rows with scopes', () => {
  let server: TestServer;
  let owner: GraphQLTestClient;

  beforeAll(async () => {
    server = await startTestServer();
    owner = await server.newAccount('keys');
  });
  afterAll(() => server.close());

  it("lists the account's first key holding every scope, and shows a new key's secret only once", async () => {
    const made = await createKey(owner, { name: 'dashboard', scopes: ['READ'] });
    expect(made.secret).toMatch(/^sck_/);
    const { apiKeys } = await owner.data<{ apiKeys: { id: string; name: string; prefix: string; scopes: string[] }[] }>(KEYS);
    expect(apiKeys.map((key) => key.name)).toEqual(['dashboard', 'First key']);
    expect(apiKeys[0]).toMatchObject({ scopes: ['READ'], prefix: made.secret.slice(0, 12) });
    expect(apiKeys[1].scopes).toEqual(['READ', 'WRITE', 'ADMIN']);
    expect(JSON.stringify(apiKeys)).not.toContain(made.secret);
    const [stored] = (await server.app.database.dataSource.query('SELECT key_hash FROM api_keys WHERE id = $1', [made.id])) as { key_hash: string }[];
    expect(stored.key_hash).not.toContain(made.secret.slice(4));
  });

  it('writes every implied scope out: a WRITE key reads too', async () => {
    const { createApiKey } = await owner.data<{ createApiKey: { apiKey: { scopes: string[] } } }>(CREATE_KEY, { input: { name: 'writer', scopes: ['WRITE'] } });
    expect(createApiKey.apiKey.scopes).toEqual(['READ', 'WRITE']);
  });

  it('refuses a bad name, no scopes, an unknown session and a past expiry, making nothing', async () => {
    const { apiKeys: before } = await owner.data<{ apiKeys: unknown[] }>(KEYS);
    for (const input of [
      { name: ' ', scopes: ['READ'] },
      { name: 'none', scopes: [] },
      { name: 'lost', scopes: ['READ'], sessionIds: ['00000000-0000-4000-8000-000000000000'] },
      { name: 'late', scopes: ['READ'], expiresAt: '2000-01-01T00:00:00Z' },
    ]) {
      const { createApiKey } = await owner.data<{ createApiKey: { __typename: string; code: string } }>(CREATE_KEY, { input });
      expect(createApiKey).toMatchObject({ __typename: 'OperationError' });
      expect(['INVALID_INPUT', 'NOT_FOUND']).toContain(createApiKey.code);
    }
    const { apiKeys: after } = await owner.data<{ apiKeys: unknown[] }>(KEYS);
    expect(after).toHaveLength(before.length);
  });

  it('answers a READ key FORBIDDEN naming WRITE for a mutation, and writes nothing', async () => {
    const reader = await createKey(owner, { scopes: ['READ'] });
    const countSessions = async () => (await owner.data<{ sessions: { totalCount: number } }>('{ sessions { totalCount } }')).sessions.totalCount;
    const before = await countSessions();
    const refused = await reader.client.request('mutation { createSession(input: { title: "no" }) { id } }');
    expect(refused.errors?.[0]).toMatchObject({ message: expect.stringContaining('WRITE'), extensions: { code: 'FORBIDDEN', scope: 'WRITE' } });
    expect(await countSessions()).toBe(before);
    expect((await reader.client.data<{ viewer: { name: string } }>('{ viewer { name } }')).viewer.name).toBe('keys');
  });

  it('answers a WRITE key FORBIDDEN naming ADMIN for keys, erasure and retention', async () => {
    const writer = await createKey(owner, { scopes: ['WRITE'] });
    const sessionId = await createSession(writer.client, 'written');
    for (const [query, variables] of [
      [KEYS, {}],
      [CREATE_KEY, { input: { name: 'x', scopes: ['READ'] } }],
      ['mutation ($id: ID!) { eraseSession(input: { sessionId: $id, scope: SESSION, reason: "r" }) { __typename } }', { id: sessionId }],
      ['mutation { setRetentionPolicy(retentionDays: 3) { id } }', {}],
      ['query { erasures { id } }', {}],
    ] as const) {
      const refused = await writer.client.request(query, variables);
      expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', scope: 'ADMIN' });
    }
    expect((await owner.data<{ session: { title: string } }>('query ($id: ID!) { session(id: $id) { title } }', { id: sessionId })).session.title).toBe('written');
  });

  it('refuses a revoked key on the next request, and an expired one', async () => {
    const doomed = await createKey(owner, { scopes: ['READ'] });
    expect((await doomed.client.request('{ viewer { id } }')).status).toBe(200);
    await revokeKey(owner, doomed.id);
    const refused = await doomed.client.request('{ viewer { id } }');
    expect(refused.status).toBe(401);
    expect(refused.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');

    const brief = await createKey(owner, { scopes: ['READ'], expiresAt: new Date(Date.now() + 1500).toISOString() });
    expect((await brief.client.request('{ viewer { id } }')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1600));
    expect((await brief.client.request('{ viewer { id } }')).status).toBe(401);
  });

  it("records a key's last use, and revokeApiKey answers null for another account's key", async () => {
    const used = await createKey(owner, { scopes: ['READ'] });
    await used.client.data('{ viewer { id } }');
    const { apiKeys } = await owner.data<{ apiKeys: { id: string; lastUsedAt: string | null }[] }>(KEYS);
    const deadline = Date.now() + 2000;
    let lastUsedAt = apiKeys.find((key) => key.id === used.id)?.lastUsedAt ?? null;
    while (!lastUsedAt && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      lastUsedAt = (await owner.data<{ apiKeys: { id: string; lastUsedAt: string | null }[] }>(KEYS)).apiKeys.find((key) => key.id === used.id)?.lastUsedAt ?? null;
    }
    expect(lastUsedAt).not.toBeNull();
    const stranger = await server.newAccount('stranger');
    expect((await stranger.data<{ revokeApiKey: unknown }>('mutation ($id: ID!) { revokeApiKey(id: $id) { id } }', { id: used.id })).revokeApiKey).toBeNull();
    expect((await used.client.request('{ viewer { id } }')).status).toBe(200);
  });
});
