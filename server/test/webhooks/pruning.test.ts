import { GraphQLTestClient } from '../helpers/graphql-client';
import { startTestServer, TestServer } from '../helpers/test-server';
import { CREATE_ENDPOINT, DeliveryView, ENDPOINTS } from '../helpers/webhook-receiver';
import { ConfigError, configFromEnv } from '../../src/config';
import { metrics } from '../../src/platform/observability/metrics';
import { PRUNE_BATCH } from '../../src/modules/webhooks/webhook-pruning.service';
import { DEFAULT_WEBHOOK_SETTINGS } from '../../src/modules/webhooks/webhooks';

const DAY = 86_400_000;
const HOUR = 3_600_000;

describe('WEBHOOK_DELIVERY_RETENTION_DAYS', () => {
  it('is 30 days unless set, and whole days from 1 to 3650', () => {
    expect(configFromEnv({}).webhooks?.deliveryRetentionDays).toBe(30);
    expect(configFromEnv({ WEBHOOK_DELIVERY_RETENTION_DAYS: '1' }).webhooks?.deliveryRetentionDays).toBe(1);
    expect(configFromEnv({ WEBHOOK_DELIVERY_RETENTION_DAYS: '3650' }).webhooks?.deliveryRetentionDays).toBe(3650);
    for (const bad of ['0', '3651', '1.5', '-2', 'month']) {
      expect(() => configFromEnv({ WEBHOOK_DELIVERY_RETENTION_DAYS: bad })).toThrow(
        new ConfigError(`WEBHOOK_DELIVERY_RETENTION_DAYS must be an integer from 1 to 3650 (got "${bad}").`),
      );
    }
  });
});

describe('pruning of ended webhook deliveries', () => {
  let server: TestServer;
  let client: GraphQLTestClient;
  /** The server's clock, moved by the test instead of waiting. */
  let now = new Date();

  beforeAll(async () => {
    // Nothing is delivered here (concurrency 0): every row stands as the test wrote it, and still this process prunes.
    server = await startTestServer({ clock: () => now, webhooks: { ...DEFAULT_WEBHOOK_SETTINGS, concurrency: 0, deliveryRetentionDays: 7 } });
    client = await server.newAccount('pruning');
  });
  afterAll(() => server.close());

  const query = (text: string, values: unknown[] = []) => server.app.database.dataSource.query(text, values);
  const ago = (ms: number) => new Date(now.getTime() - ms);

  async function endpoint(): Promise<string> {
    const input = { url: 'https://93.184.215.14/hooks', events: ['MESSAGE_POSTED'] };
    const { createWebhookEndpoint } = await client.data<{ createWebhookEndpoint: { endpoint: { id: string } } }>(CREATE_ENDPOINT, { input });
    return createWebhookEndpoint.endpoint.id;
  }

  /** A delivery row as the worker leaves it; returns its id. */
  async function delivery(endpointId: string, status: 'PENDING' | 'DELIVERED' | 'FAILED', createdAt: Date, deliveredAt: Date | null = null, nextAttemptAt: Date | null = null): Promise<string> {
    const [{ id }] = await query(
      `INSERT INTO webhook_deliveries (id, account_id, endpoint_id, event, body, status, attempts, created_at, delivered_at, next_attempt_at)
       SELECT gen_random_uuid(), account_id, id, 'MESSAGE_POSTED', '{}', $2, 1, $3, $4, $5 FROM webhook_endpoints WHERE id = $1
       RETURNING id`,
      [endpointId, status, createdAt, deliveredAt, nextAttemptAt],
    );
    return id;
  }

  const remaining = async (ids: string[]) => (await query(`SELECT id FROM webhook_deliveries WHERE id = ANY ($1::uuid[])`, [ids])).map((row: { id: string }) => row.id).sort();
  const prunedSoFar = async () => (await metrics.webhookDeliveriesPruned.get()).values[0]?.value ?? 0;

  it('deletes ended deliveries older than the retention, keeps newer ones and every pending one, disabled endpoint or not', async () => {
    now = new Date();
    const active = await endpoint();
    const disabled = await endpoint();
    await query(`UPDATE webhook_endpoints SET disabled_at = $2, failing_since = $2 WHERE id = $1`, [disabled, ago(20 * DAY)]);
    const old = [
      await delivery(active, 'DELIVERED', ago(8 * DAY), ago(8 * DAY)),
      await delivery(active, 'FAILED', ago(9 * DAY)),
      await delivery(disabled, 'FAILED', ago(20 * DAY)),
      await delivery(disabled, 'DELIVERED', ago(21 * DAY), ago(21 * DAY)),
    ];
    // Queued long ago, delivered (or redelivered) recently: its delivery decides.
    const lateDelivery = await delivery(active, 'DELIVERED', ago(30 * DAY), ago(6 * DAY));
    const recentFailure = await delivery(active, 'FAILED', ago(6 * DAY));
    const kept = [
      lateDelivery,
      recentFailure,
      await delivery(active, 'DELIVERED', ago(HOUR), ago(HOUR)),
      // Waiting for a retry, and in flight (its claim lapses in the future): never deleted, however old.
      await delivery(active, 'PENDING', ago(40 * DAY), null, ago(39 * DAY)),
      await delivery(active, 'PENDING', ago(40 * DAY), null, new Date(now.getTime() + 15_000)),
      await delivery(disabled, 'PENDING', ago(40 * DAY), null, ago(39 * DAY)),
    ];
    const before = await prunedSoFar();

    expect(await server.app.webhookPruning.pruneOnce()).toBe(old.length);
    expect(await remaining([...old, ...kept])).toEqual([...kept].sort());
    expect((await prunedSoFar()) - before).toBe(old.length);
    expect(await server.app.webhookPruning.pruneOnce()).toBe(0);

    // A day later the delivery made six days ago has passed the retention, and the failure queued then.
    now = new Date(now.getTime() + 1.5 * DAY);
    expect(await server.app.webhookPruning.pruneOnce()).toBe(2);
    expect(await remaining(kept)).toEqual(kept.filter((id) => id !== lateDelivery && id !== recentFailure).sort());
  });

  it('shows no pruned delivery in the history, and cannot redeliver one', async () => {
    now = new Date();
    const endpointId = await endpoint();
    const old = await delivery(endpointId, 'FAILED', ago(10 * DAY));
    const recent = await delivery(endpointId, 'FAILED', ago(DAY));
    await server.app.webhookPruning.pruneOnce();

    const { webhookEndpoints } = await client.data<{ webhookEndpoints: { id: string; deliveries: DeliveryView[] }[] }>(ENDPOINTS);
    const history = webhookEndpoints.find((candidate) => candidate.id === endpointId)!.deliveries.map((shown) => shown.id);
    expect(history).toEqual([recent]);
    const redeliver = 'mutation ($d: ID!) { redeliverWebhook(deliveryId: $d) { id status } }';
    expect((await client.data<{ redeliverWebhook: unknown }>(redeliver, { d: old })).redeliverWebhook).toBeNull();
  });

  it('deletes a bounded batch at a time, and processes pruning at once share the work', async () => {
    now = new Date();
    const endpointId = await endpoint();
    const backlog = PRUNE_BATCH + 500;
    await query(
      `INSERT INTO webhook_deliveries (id, account_id, endpoint_id, event, body, status, attempts, created_at, delivered_at)
       SELECT gen_random_uuid(), account_id, id, 'MESSAGE_POSTED', '{}', 'DELIVERED', 1, $2::timestamptz - n * interval '1 second', $2::timestamptz - n * interval '1 second'
       FROM webhook_endpoints, generate_series(1, $3) n WHERE id = $1`,
      [endpointId, ago(8 * DAY), backlog],
    );
    const pruning = server.app.webhookPruning;

    expect(await pruning.pruneOnce()).toBe(PRUNE_BATCH);
    await query(
      `INSERT INTO webhook_deliveries (id, account_id, endpoint_id, event, body, status, attempts, created_at, delivered_at)
       SELECT gen_random_uuid(), account_id, id, 'MESSAGE_POSTED', '{}', 'DELIVERED', 1, $2::timestamptz, $2::timestamptz
       FROM webhook_endpoints, generate_series(1, $3) n WHERE id = $1`,
      [endpointId, ago(9 * DAY), PRUNE_BATCH],
    );
    // The 500 left and a batch more: each row is deleted once, by whichever takes it first.
    const together = await Promise.all([pruning.pruneOnce(), pruning.pruneOnce(), pruning.pruneOnce()]);
    expect(together.reduce((sum, pruned) => sum + pruned, 0)).toBe(backlog);
    expect(Math.max(...together)).toBeLessThanOrEqual(PRUNE_BATCH);
    expect(await query(`SELECT count(*)::integer AS left FROM webhook_deliveries WHERE endpoint_id = $1`, [endpointId])).toEqual([{ left: 0 }]);
  });
});
