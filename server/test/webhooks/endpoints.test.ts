import { GraphQLTestClient } from '../helpers/graphql-client';
import { startTestServer, TestServer } from '../helpers/test-server';
import { CREATE_ENDPOINT } from '../helpers/webhook-receiver';
import { DEFAULT_WEBHOOK_SETTINGS } from '../../src/modules/webhooks/webhooks';

type Created = {
  createWebhookEndpoint: { __typename: string; secret?: string; endpoint?: { id: string; url: string; events: string[] }; code?: string; details?: { path: string[] }[] };
};

describe('webhook endpoints', () => {
  let server: TestServer;
  let client: GraphQLTestClient;

  beforeAll(async () => {
    // The defaults: https only, public addresses only.
    server = await startTestServer({ webhooks: DEFAULT_WEBHOOK_SETTINGS });
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
});
