import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { RunningApp } from '../server/src/app';
import { DEFAULT_WEBHOOK_SETTINGS } from '../server/src/modules/webhooks/webhooks';
import { GraphQLClient } from './graphql';
import { log, runOnNewDatabase, startBenchServer } from './harness';
import { MESSAGE_TEXTS, postOverHttp } from './post-message';
import { fixed, measure, spread, table } from './stats';

/**
 * Webhooks: how many deliveries a second one server process makes to a receiver on loopback, and
 * what an active endpoint costs postMessage against an account with none, measured in the same
 * run, rounds alternating which goes first. The receiver answers 200 at once and verifies every
 * signature with the `standardwebhooks` package.
 */
const ROUNDS = Number(process.env.WEBHOOK_BENCH_ROUNDS ?? 3);
const POSTS = Number(process.env.WEBHOOK_BENCH_POSTS ?? 1_000);
const CLIENTS = Number(process.env.WEBHOOK_BENCH_CLIENTS ?? 8);
/** Each round's posts go in this many chunks per account, interleaved. */
const CHUNKS = 10;
const DELIVERIES = Number(process.env.WEBHOOK_BENCH_DELIVERIES ?? 3_000);
const COST_TARGET = 0.1;

function startReceiver() {
  let verifier: Webhook | null = null;
  const arrivals: number[] = [];
  let forged = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      try {
        verifier?.verify(Buffer.concat(chunks), request.headers as Record<string, string>);
      } catch {
        forged += 1;
      }
      arrivals.push(performance.now());
      response.writeHead(200).end();
    });
  });
  return new Promise<{ url: string; arrivals: number[]; forged: () => number; trust(secret: string): void; close(): void }>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
        arrivals,
        forged: () => forged,
        trust: (secret) => (verifier = new Webhook(secret)),
        close: () => server.close(),
      }),
    ),
  );
}

interface Account {
  client: GraphQLClient;
  sessions: string[];
}

async function account(app: RunningApp, admin: GraphQLClient, name: string): Promise<Account> {
  const { createAccount } = await admin.data<{ createAccount: { apiKey: string } }>('mutation ($n: String!) { createAccount(name: $n) { apiKey } }', { n: name });
  const client = new GraphQLClient(app.url, createAccount.apiKey);
  const sessions: string[] = [];
  for (let index = 0; index < CLIENTS; index++) {
    const { createSession } = await client.data<{ createSession: { id: string } }>('mutation ($t: String!) { createSession(input: { title: $t }) { id } }', { t: `${name} ${index}` });
    sessions.push(createSession.id);
  }
  return { client, sessions };
}

async function pendingDeliveries(app: RunningApp): Promise<number> {
  const [{ pending }] = await app.database.dataSource.query(`SELECT count(*)::int AS pending FROM webhook_deliveries WHERE status = 'PENDING'`);
  return pending;
}

async function drained(app: RunningApp): Promise<void> {
  while ((await pendingDeliveries(app)) > 0) await new Promise((resolve) => setTimeout(resolve, 100));
}

/** Seconds `count` posts of one account take, its clients each writing to a session of their own. */
async function postingSeconds({ client, sessions }: Account, count: number): Promise<number> {
  const started = performance.now();
  await measure(CLIENTS, count, (index) => postOverHttp(client, sessions[index % CLIENTS], MESSAGE_TEXTS[index % MESSAGE_TEXTS.length]));
  return (performance.now() - started) / 1000;
}

type Mode = 'outbox only' | 'posting and delivering';

/**
 * Rounds of postMessage in each account, interleaved in short chunks (alternating which goes
 * first) so that the shared machine's slow moments fall on both sides alike. `outbox only`: this
 * process's worker is stopped while posting (another process would deliver) and the queue is
 * drained between chunks, untimed. `posting and delivering`: the worker runs, and a chunk of the
 * account with an endpoint counts until its deliveries are made.
 */
async function costRounds(app: RunningApp, quiet: Account, hooked: Account, mode: Mode): Promise<string> {
  const costs: number[] = [];
  const rows: string[][] = [];
  const chunk = Math.max(1, Math.floor(POSTS / CHUNKS));
  for (let round = 1; round <= ROUNDS; round++) {
    const seconds = new Map<Account, number>([
      [quiet, 0],
      [hooked, 0],
    ]);
    for (let index = 0; index < CHUNKS; index++) {
      for (const side of (round + index) % 2 ? [quiet, hooked] : [hooked, quiet]) {
        if (mode === 'outbox only') await app.webhooks.stop();
        const started = performance.now();
        await postingSeconds(side, chunk);
        if (mode === 'posting and delivering') await drained(app);
        seconds.set(side, seconds.get(side)! + (performance.now() - started) / 1000);
        app.webhooks.start();
        await drained(app);
      }
    }
    const rate = (side: Account) => (chunk * CHUNKS) / seconds.get(side)!;
    const cost = rate(quiet) / rate(hooked) - 1;
    costs.push(cost * 100);
    rows.push([String(round), fixed(rate(quiet)), fixed(rate(hooked)), `${fixed(cost * 100)} %`]);
    log(`${mode}, round ${round}: ${rows[rows.length - 1].join(' ')}`);
  }
  const cost = spread(costs);
  const verdict = cost.median <= COST_TARGET * 100 ? 'met' : 'missed';
  return `${mode}:\n${table(['round', 'no endpoint', 'one endpoint', 'cost'], rows)}\ncost min / median / max: ${fixed(cost.min)} / ${fixed(cost.median)} / ${fixed(cost.max)} % (target <= ${COST_TARGET * 100} %: ${verdict})\n`;
}

runOnNewDatabase(async (databaseUrl) => {
  const receiver = await startReceiver();
  const app = await startBenchServer(databaseUrl, { poolSize: 10, webhooks: { ...DEFAULT_WEBHOOK_SETTINGS, allowPrivateNetworks: true, allowHttp: true } });
  const admin = new GraphQLClient(app.url, app.bootstrapKey.apiKey);
  try {
    const quiet = await account(app, admin, 'no endpoint');
    const hooked = await account(app, admin, 'one endpoint');
    const { createWebhookEndpoint } = await hooked.client.data<{ createWebhookEndpoint: { secret: string } }>(
      'mutation ($i: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $i) { ... on CreateWebhookEndpointSuccess { secret } } }',
      { i: { url: receiver.url, events: ['MESSAGE_POSTED', 'RUN_SUCCEEDED', 'SESSION_CONTINUED'] } },
    );
    receiver.trust(createWebhookEndpoint.secret);
    log(`Warming up (${POSTS} posts each)...`);
    await postingSeconds(quiet, POSTS);
    await postingSeconds(hooked, POSTS);
    await drained(app);

    const outboxOnly = await costRounds(app, quiet, hooked, 'outbox only');
    const delivering = await costRounds(app, quiet, hooked, 'posting and delivering');

    const rates: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      // Queued at once, as after an outage: the worker drains them as fast as it can.
      const [{ id: endpointId, account_id: accountId }] = await app.database.dataSource.query(`SELECT id, account_id FROM webhook_endpoints LIMIT 1`);
      receiver.arrivals.length = 0;
      await app.database.dataSource.query(
        `INSERT INTO webhook_deliveries (id, account_id, endpoint_id, event, body, status, next_attempt_at, created_at)
         SELECT gen_random_uuid(), $1, $2, 'MESSAGE_POSTED', json_build_object('type', 'message.posted', 'timestamp', now(), 'data', json_build_object('n', n))::text,
                'PENDING', now(), now()
         FROM generate_series(1, $3) n`,
        [accountId, endpointId, DELIVERIES],
      );
      app.webhooks.wake();
      await drained(app);
      const { arrivals } = receiver;
      rates.push((arrivals.length - 1) / ((arrivals[arrivals.length - 1] - arrivals[0]) / 1000));
      log(`Round ${round}: ${fixed(rates[rates.length - 1])} deliveries/s`);
    }

    const delivered = spread(rates);
    console.log(`\npostMessage with an active endpoint against none (${POSTS} posts per round and account in ${CHUNKS} interleaved chunks, ${CLIENTS} clients, ${ROUNDS} rounds; messages/s):\n`);
    for (const report of [outboxOnly, delivering]) console.log(report);
    console.log(`\ndeliveries/s to a receiver on loopback (${DELIVERIES} queued at once, WEBHOOK_CONCURRENCY ${DEFAULT_WEBHOOK_SETTINGS.concurrency}):`);
    console.log(`min / median / max: ${fixed(delivered.min)} / ${fixed(delivered.median)} / ${fixed(delivered.max)}`);
    console.log(`signatures that did not verify: ${receiver.forged()}`);
  } finally {
    admin.close();
    await app.close();
    receiver.close();
  }
});
