import { randomBytes } from 'node:crypto';
import { GraphQLTestClient } from '../helpers/graphql-client';
import { createSession, postMessage } from '../helpers/continuations';
import { exitOf, startServerProcess, waitForOutput } from '../helpers/server-process';
import { CREATE_ENDPOINT, DeliveryView, ENDPOINTS, WebhookReceiver } from '../helpers/webhook-receiver';
import { isolatedServerDatabase } from '../setup/test-database';

const onPostgres = process.env.TEST_DATABASE_URL ? describe : describe.skip;
const BOOTSTRAP_KEY = `sck_hooks_${randomBytes(16).toString('hex')}`;

/** Server processes delivering webhooks as production runs them, on one database. */
function processes() {
  const children: ReturnType<typeof startServerProcess>[] = [];
  let database: Awaited<ReturnType<typeof isolatedServerDatabase>>;
  return {
    async open() {
      database = await isolatedServerDatabase();
    },
    async start(settings: Record<string, string> = {}): Promise<{ client: GraphQLTestClient; child: ReturnType<typeof startServerProcess> }> {
      const child = startServerProcess({
        ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
        DATA_DIR: database.dataDir,
        BOOTSTRAP_API_KEY: BOOTSTRAP_KEY,
        MODEL_PROVIDER: 'none',
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        WEBHOOK_ALLOW_HTTP: 'true',
        WEBHOOK_RETRY_SCHEDULE_MS: '200,500,1000,2000,4000,8000',
        // A claim lapses 5 s after its attempt's timeout.
        WEBHOOK_TIMEOUT_MS: '1000',
        WEBHOOK_POLL_MS: '100',
        ...settings,
      });
      children.push(child);
      const [, url] = await waitForOutput(child, /API: (http:\/\/127\.0\.0\.1:\d+)\/graphql/);
      return { client: new GraphQLTestClient(url, BOOTSTRAP_KEY), child };
    },
    async close() {
      for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await Promise.all(children.map((child) => (child.exitCode === null && child.signalCode === null ? exitOf(child) : null)));
      await database.drop();
    },
  };
}

async function registered(client: GraphQLTestClient, receiver: WebhookReceiver): Promise<void> {
  const { createWebhookEndpoint } = await client.data<{ createWebhookEndpoint: { secret: string } }>(CREATE_ENDPOINT, { input: { url: receiver.url, events: ['MESSAGE_POSTED'] } });
  receiver.trust(createWebhookEndpoint.secret);
}

const deliveriesOf = async (client: GraphQLTestClient) =>
  (await client.data<{ webhookEndpoints: { deliveries: DeliveryView[] }[] }>(ENDPOINTS)).webhookEndpoints.flatMap((endpoint) => endpoint.deliveries);

describe('webhooks across a server process killed and restarted', () => {
  const servers = processes();
  const receiver = new WebhookReceiver();
  beforeAll(() => servers.open());
  afterAll(async () => {
    await receiver.close();
    await servers.close();
  }, 60_000);

  it('delivers, once the next process is up, every delivery the killed one left pending', async () => {
    await receiver.open();
    await receiver.close();
    const first = await servers.start();
    await registered(first.client, receiver);
    const session = await createSession(first.client, 'before the crash');
    for (let index = 0; index < 10; index++) await postMessage(first.client, session, `message ${index}`);
    // Every delivery tried at least once, and pending: the receiver is down.
    for (let deadline = Date.now() + 20_000; (await deliveriesOf(first.client)).some((delivery) => delivery.attempts === 0) && Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const pending = await deliveriesOf(first.client);
    expect(pending.map((delivery) => delivery.status)).toEqual(Array(10).fill('PENDING'));
    first.child.kill('SIGKILL');
    await exitOf(first.child);

    await receiver.open();
    const second = await servers.start();
    await receiver.until((hooks) => hooks.delivered().length === 10, 40_000);
    expect(new Set(receiver.delivered().map((hook) => hook.id))).toEqual(new Set(pending.map((delivery) => delivery.id)));
    expect(receiver.rejected).toEqual([]);
    for (let deadline = Date.now() + 10_000; (await deliveriesOf(second.client)).some((delivery) => delivery.status !== 'DELIVERED') && Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await deliveriesOf(second.client)).map((delivery) => delivery.status)).toEqual(Array(10).fill('DELIVERED'));
  }, 120_000);
});

onPostgres('webhooks delivered by two server processes', () => {
  const servers = processes();
  const receiver = new WebhookReceiver();
  beforeAll(() => servers.open());
  afterAll(async () => {
    await receiver.close();
    await servers.close();
  }, 60_000);

  it('share the queue: each delivery reaches the receiver once', async () => {
    await receiver.open();
    // "In time" with room to spare: on a busy machine an attempt that times out is sent again, as
    // at least once requires, and would count here as a second delivery.
    const inTime = { WEBHOOK_TIMEOUT_MS: '10000' };
    const [one, two] = [await servers.start(inTime), await servers.start(inTime)];
    await registered(one.client, receiver);
    const sessions = [await createSession(one.client, 'one'), await createSession(two.client, 'two')];
    await Promise.all(
      Array.from({ length: 60 }, (_, index) => postMessage(index % 2 ? two.client : one.client, sessions[index % 2], `message ${index}`)),
    );
    await receiver.until((hooks) => hooks.delivered().length === 60, 40_000);
    // At least once, and here exactly once: a receiver that answers in time is not sent a delivery twice.
    expect(receiver.received).toHaveLength(60);
  }, 120_000);
});
