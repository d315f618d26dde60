import { Client } from 'pg';
import type { PayloadCodec } from '../../src/platform/pubsub/payload-codec';
import { PostgresEventTarget, PUBSUB_CHANNEL } from '../../src/platform/pubsub/postgres-event-target';
import { isolatedServerDatabase } from '../setup/test-database';

/** Publishes between processes need PostgreSQL's LISTEN/NOTIFY: on PostgreSQL only. */
const onPostgres = process.env.TEST_DATABASE_URL ? describe : describe.skip;

const asIs: PayloadCodec = {
  compact: (_topic, detail) => detail,
  restore: async (_topic, compacted) => compacted,
  missedSince: async () => [],
  identity: (_topic, detail) => JSON.stringify(detail),
};

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

onPostgres('publishes between server processes', () => {
  let database: Awaited<ReturnType<typeof isolatedServerDatabase>>;
  let observer: Client;
  /** Every announcement on the channel, as a process that only listens sees it. */
  const announced: unknown[] = [];
  const targets: PostgresEventTarget[] = [];

  async function connect(): Promise<PostgresEventTarget> {
    const target = await PostgresEventTarget.connect(database.databaseUrl!, asIs);
    targets.push(target);
    return target;
  }

  const publish = (target: PostgresEventTarget, type: string, n: number) => target.dispatchEvent(new CustomEvent(type, { detail: { n } }));

  /**
   * Notifies a marker from the observer and waits for it: every notification sent before it has
   * arrived. (Nothing is queued by a publish that a process does not announce.)
   */
  async function settled(): Promise<void> {
    const marker = `marker-${Math.random()}`;
    await observer.query('SELECT pg_notify($1, $2)', [PUBSUB_CHANNEL, JSON.stringify({ marker })]);
    await until(() => announced.some((message) => (message as { marker?: string }).marker === marker), 'the marker is back');
  }

  const announcements = () => announced.filter(Array.isArray).flat() as { type: string }[];

  beforeAll(async () => {
    // A database of its own: the channel is per database, and other suites' servers listen on theirs.
    database = await isolatedServerDatabase();
    observer = new Client({ connectionString: database.databaseUrl });
    await observer.connect();
    observer.on('notification', (message) => announced.push(JSON.parse(message.payload!)));
    await observer.query(`LISTEN ${PUBSUB_CHANNEL}`);
  });
  afterAll(async () => {
    for (const target of targets) await target.close();
    await observer.end();
    await database.drop();
  });

  it('announces nothing while alone, to another process once it started, and nothing once it stopped', async () => {
    const first = await connect();
    const firstReceived: unknown[] = [];
    first.addEventListener('TOPIC:to the first', (event) => firstReceived.push((event as CustomEvent).detail));
    publish(first, 'TOPIC:alone', 1);
    await settled();
    expect(announcements()).toEqual([]);

    // The starting process heard the first answer its hello: it announces to it at once.
    const second = await connect();
    publish(second, 'TOPIC:to the first', 2);
    await until(() => firstReceived.length === 1, 'the first process received the publish');
    expect(firstReceived).toEqual([{ n: 2 }]);
    const secondReceived: unknown[] = [];
    second.addEventListener('TOPIC:to the second', (event) => secondReceived.push((event as CustomEvent).detail));
    publish(first, 'TOPIC:to the second', 3);
    await until(() => secondReceived.length === 1, 'the second process received the publish');
    expect(secondReceived).toEqual([{ n: 3 }]);

    await second.close();
    targets.splice(targets.indexOf(second), 1);
    await until(() => !first.hasPeers, 'the first process heard the second say goodbye');
    publish(first, 'TOPIC:alone again', 4);
    await settled();
    expect(announcements().map((announcement) => announcement.type)).toEqual(['TOPIC:to the first', 'TOPIC:to the second']);
    await first.close();
    targets.splice(targets.indexOf(first), 1);
  });

  it('counts a process that announces without greeting, as an older version does, as listening', async () => {
    const target = await connect();
    expect(target.hasPeers).toBe(false);
    await observer.query('SELECT pg_notify($1, $2)', [
      PUBSUB_CHANNEL,
      JSON.stringify([{ from: 'an-older-process', type: 'TOPIC:elsewhere', compacted: { n: 0 } }]),
    ]);
    await until(() => target.hasPeers, 'the announcing process is counted');
    publish(target, 'TOPIC:for the older one', 5);
    await until(() => announcements().some((announcement) => announcement.type === 'TOPIC:for the older one'), 'the publish is announced');
  });
});
