import { DEFAULT_WEBHOOK_SETTINGS } from '../server/src/modules/webhooks/webhooks';
import { withClient } from './database';
import { log, runOnNewDatabase, startBenchServer } from './harness';
import { fixed, spread, table } from './stats';

/**
 * Pruning of webhook deliveries: how long one batch's statement takes (and so holds its row locks)
 * on a backlog of ended deliveries past the retention among rows to keep, how fast the backlog
 * drains, and what a pass costs once it has caught up.
 */
/** Deliveries seeded, queued evenly over the last 120 days: three quarters ended before the 30-day retention. */
const SEEDED = Number(process.env.PRUNING_BENCH_DELIVERIES ?? 200_000);
const IDLE_PASSES = 50;

async function seed(databaseUrl: string): Promise<void> {
  await withClient(databaseUrl, async (client) => {
    await client.query(
      `WITH owner AS (INSERT INTO accounts (name) VALUES ('pruning') RETURNING id),
      endpoint AS (
        INSERT INTO webhook_endpoints (id, account_id, url, events, secret, created_at)
        SELECT gen_random_uuid(), id, 'https://hooks.example.com/', '{MESSAGE_POSTED}', 'whsec_c2VlZGVk', now() FROM owner
        RETURNING id, account_id
      )
      INSERT INTO webhook_deliveries (id, account_id, endpoint_id, event, body, status, attempts, created_at, delivered_at, next_attempt_at)
      SELECT gen_random_uuid(), account_id, id, 'MESSAGE_POSTED', '{"type":"message.posted"}', status, 1, created_at,
             CASE status WHEN 'DELIVERED' THEN created_at + interval '1 second' END, CASE status WHEN 'PENDING' THEN now() END
      FROM endpoint, (
        SELECT CASE WHEN n % 100 = 0 THEN 'PENDING' WHEN n % 10 = 0 THEN 'FAILED' ELSE 'DELIVERED' END AS status,
               now() - interval '120 days' + n * interval '120 days' / $1::integer AS created_at
        FROM generate_series(1, $1::integer) n
      ) seeded`,
      [SEEDED],
    );
    await client.query('ANALYZE webhook_deliveries');
  });
}

runOnNewDatabase(async (databaseUrl) => {
  // Nothing is delivered: the pending rows stay pending, and the pruning is stepped by hand.
  const app = await startBenchServer(databaseUrl, { poolSize: 4, webhooks: { ...DEFAULT_WEBHOOK_SETTINGS, concurrency: 0 } });
  try {
    await app.webhookPruning.stop();
    log(`Seeding ${SEEDED} deliveries over 120 days...`);
    await seed(databaseUrl);
    const count = () => withClient(databaseUrl, async (client) => (await client.query(`SELECT count(*)::integer AS n FROM webhook_deliveries`)).rows[0].n as number);
    const before = await count();
    const batchMs: number[] = [];
    let pruned = 0;
    const started = performance.now();
    for (;;) {
      const batchStarted = performance.now();
      const deleted = await app.webhookPruning.pruneOnce();
      if (deleted === 0) break;
      batchMs.push(performance.now() - batchStarted);
      pruned += deleted;
    }
    const drainSeconds = (performance.now() - started) / 1000;
    const idleMs: number[] = [];
    for (let pass = 0; pass < IDLE_PASSES; pass += 1) {
      const passStarted = performance.now();
      await app.webhookPruning.pruneOnce();
      idleMs.push(performance.now() - passStarted);
    }
    const after = await count();
    const cell = (samples: number[]) => {
      const { min, median, max } = spread(samples);
      return `${fixed(min)} / ${fixed(median)} / ${fixed(max)}`;
    };
    console.log(
      table(
        ['measurement', 'figure'],
        [
          ['deliveries seeded, over 120 days (9 % FAILED, 1 % PENDING)', String(before)],
          ['deleted (ended more than 30 days ago)', String(pruned)],
          ['kept', String(after)],
          [`one batch of up to 1,000, ms (${batchMs.length} batches)`, cell(batchMs)],
          ['backlog drained, deliveries per second', fixed(pruned / drainSeconds, 0)],
          [`a pass with nothing to delete, ms (${IDLE_PASSES} passes)`, cell(idleMs)],
        ],
      ),
    );
  } finally {
    await app.close();
  }
});
