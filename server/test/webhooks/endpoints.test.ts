import { GraphQLTestClient } from '../helpers/graphql-client';
import { createKey } from '../helpers/api-keys';
import { createSession } from '../helpers/continuations';
import { startTestServer, TestServer } from '../helpers/test-server';
import { CREATE_ENDPOINT } from '../helpers/webhook-receiver';
import { DEFAULT_WEBHOOK_SETTINGS } from '../../src/modules/webhooks/webhooks';

type Created = {
  createWebhookEndpoint: { __typename: string; secret?: string; endpoint?: { id: string; url: string; events: string[] }; code?: string; details?: { path: string[] }[] };
};

describe('webhook endpoints', () => {
  let server: TestServer;
  let client: GraphQLTestClient;
  const logLines: string[] = [];

  beforeAll(async () => {
    // The defaults, https only and public addresses only, with retries quick enough to watch.
    server = await startTestServer({
      webhooks: { ...DEFAULT_WEBHOOK_SETTINGS, retryScheduleMs: Array(20).fill(100), disableAfterMs: 600, pollMs: 50 },
      logDestination: { write: (line: string) => void logLines.push(line) },
    });
    client = await server.newAccount('hooks');
  });
  afterAll(() => server.close());

  const create = async (c: GraphQLTestClient, input: Record<string, unknown>) => (await c.data<Created>(CREATE_ENDPOINT, { input })).createWebhookEndpoint;

  it('registers an endpoint and shows its whsec_ secret once, never again', async () => {
    const created = await create(client, { url: 'https://93.184.215.14/hooks', events: ['MESSAGE_POSTED', 'RUN_FAILED'], description: 'billing' });
    expect(created.__typename).toBe('CreateWebhookEndpointSuccess');
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(created.secret!.slice('whsec_'.length), 'base64')).toHaveLength(32);
    const { webhookEndpoints } = await client.data<{ webhookEndpoints: { id: string; events: string[] }[] }>('query { webhookEndpoints { id url events description } }');
    expect(webhookEndpoints).toEqual([expect.objectContaining({ id: created.endpoint!.id, events: ['MESSAGE_POSTED', 'RUN_FAILED'] })]);
    const secretField = await client.request('query { webhookEndpoints { secret } }');
    expect(secretField.errors?.[0].message).toMatch(/Cannot query field "secret"/);
    expect(JSON.stringify(await client.data('query { webhookEndpoints { id url events description createdAt disabledAt deliveries { id } } }'))).not.toContain(created.secret);
  });

  it('is managed with an ADMIN key only: a WRITE key, or one limited to sessions, is FORBIDDEN', async () => {
    const session = await createSession(client, 'limited');
    const writer = await createKey(client, { scopes: ['WRITE'] });
    const limited = await createKey(client, { scopes: ['ADMIN'], sessionIds: [session] });
    for (const key of [writer, limited]) {
      expect((await key.client.request('query { webhookEndpoints { id } }')).errors?.[0].extensions?.code).toBe('FORBIDDEN');
      const created = await key.client.request(CREATE_ENDPOINT, { input: { url: 'https://93.184.215.14/hooks', events: ['MESSAGE_POSTED'] } });
      expect(created.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    }
    const admin = await createKey(client, { scopes: ['ADMIN'] });
    expect((await admin.client.request('query { webhookEndpoints { id } }')).errors).toBeUndefined();
  });

  it('refuses plain http, private, loopback, link-local and metadata addresses, and names the field', async () => {
    for (const url of [
      'http://93.184.215.14/hooks',
      'https://127.0.0.1/hooks',
      'https://localhost/hooks',
      'https://10.1.2.3/hooks',
      'https://192.168.0.10/hooks',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/hooks',
      'https://[fd00:ec2::254]/hooks',
      'https://[::ffff:127.0.0.1]/hooks',
      'https://100.100.100.200/hooks',
      'not a url',
    ]) {
      const refused = await create(client, { url, events: ['MESSAGE_POSTED'] });
      expect([url, refused.__typename, refused.code, refused.details?.[0].path]).toEqual([url, 'OperationError', 'INVALID_INPUT', ['input', 'url']]);
    }
    const none = await create(client, { url: 'https://93.184.215.14/', events: [] });
    expect(none.details?.[0].path).toEqual(['input', 'events']);
  });

  it('deletes an endpoint of the account, and answers null for another account\'s', async () => {
    const created = await create(client, { url: 'https://93.184.215.14/other', events: ['SESSION_CONTINUED'] });
    const stranger = await server.newAccount('stranger');
    const mutation = 'mutation ($id: ID!) { deleteWebhookEndpoint(id: $id) { id url } }';
    expect((await stranger.data<{ deleteWebhookEndpoint: unknown }>(mutation, { id: created.endpoint!.id })).deleteWebhookEndpoint).toBeNull();
    expect((await stranger.data<{ webhookEndpoints: unknown[] }>('query { webhookEndpoints { id } }')).webhookEndpoints).toEqual([]);
    expect((await client.data<{ deleteWebhookEndpoint: { id: string } }>(mutation, { id: created.endpoint!.id })).deleteWebhookEndpoint.id).toBe(created.endpoint!.id);
    expect((await client.data<{ deleteWebhookEndpoint: unknown }>(mutation, { id: created.endpoint!.id })).deleteWebhookEndpoint).toBeNull();
    const redeliver = 'mutation ($id: ID!) { redeliverWebhook(deliveryId: $id) { id } }';
    expect((await client.data<{ redeliverWebhook: unknown }>(redeliver, { id: created.endpoint!.id })).redeliverWebhook).toBeNull();
  });

  it('refuses at connect time a host that resolves to a private address since it was registered, and disables an endpoint failing for too long', async () => {
    const owner = await server.newAccount('rebinding');
    const created = await create(owner, { url: 'https://93.184.215.14/hooks', events: ['SESSION_ERASED'] });
    // As if the host's DNS now answered with a loopback address.
    await server.app.database.dataSource.query(`UPDATE webhook_endpoints SET url = 'https://localhost:9/hooks' WHERE id = $1`, [created.endpoint!.id]);
    const session = await createSession(owner, 'to erase');
    await owner.data('mutation ($s: ID!) { eraseSession(input: { sessionId: $s, scope: SESSION, reason: "test" }) { __typename } }', { s: session });

    type Endpoint = { disabledAt: string | null; deliveries: { id: string; status: string; attempts: number; lastError: string | null }[] };
    const endpoint = async () => (await owner.data<{ webhookEndpoints: Endpoint[] }>('query { webhookEndpoints { disabledAt deliveries { id status attempts lastError } } }')).webhookEndpoints[0];
    for (let deadline = Date.now() + 10_000; !(await endpoint()).disabledAt && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 100));
    const disabled = await endpoint();
    expect(disabled.disabledAt).not.toBeNull();
    expect(disabled.deliveries).toEqual([{ id: expect.any(String), status: 'FAILED', attempts: expect.any(Number), lastError: 'localhost resolves to 127.0.0.1, which is not a public address.' }]);
    expect(disabled.deliveries[0].attempts).toBeGreaterThan(1);
    expect(logLines.some((line) => /"level":40/.test(line) && line.includes('disabled') && line.includes(created.endpoint!.id))).toBe(true);
    const refused = await owner.request('mutation ($d: ID!) { redeliverWebhook(deliveryId: $d) { id } }', { d: disabled.deliveries[0].id });
    expect(refused.errors?.[0].extensions?.code).toBe('INVALID_INPUT');
    // A disabled endpoint is sent nothing more.
    const another = await createSession(owner, 'another');
    await owner.data('mutation ($s: ID!) { eraseSession(input: { sessionId: $s, scope: SESSION, reason: "test" }) { __typename } }', { s: another });
    expect((await endpoint()).deliveries).toHaveLength(1);
  });
});
