import { Redis } from 'ioredis';
import { Client } from 'pg';
import { GraphQLTestClient } from '../helpers/graphql-client';
import { createSession, postMessage } from '../helpers/continuations';
import { startTestServer, testRedisUrl, TestServer } from '../helpers/test-server';
import { directUrl } from '../setup/test-database';

/**
 * History reads from a streaming replica (DATABASE_REPLICA_URL: a standby of the run's PostgreSQL,
 * as `.ci/scale-out-services` starts one with `pg_basebackup -R`). Replay is paused on it to make it
 * lag as far as a test needs; two servers stand for two processes sharing Redis.
 */
const withReplica = process.env.TEST_DATABASE_URL && process.env.DATABASE_REPLICA_URL ? describe : describe.skip;

/** `databaseUrl`'s database on the replica. */
function onReplica(databaseUrl: string): string {
  const url = new URL(process.env.DATABASE_REPLICA_URL!);
  url.pathname = new URL(databaseUrl).pathname;
  return url.toString();
}

interface Readiness {
  ready: boolean;
  replica?: { ok: boolean; lagBytes: number; lagSeconds: number };
}

const readiness = async (server: TestServer) => (await (await fetch(`${server.url}/readyz`)).json()) as Readiness;

const SEARCH = `query ($q: String!) { searchEvents(query: $q) { totalCount edges { node { event { text } } } } }`;
const PAGE = `query ($s: ID!) { session(id: $s) { eventCount events(first: 50) { edges { node { text } } } lineage { id } } }`;

interface Page {
  session: { eventCount: number; events: { edges: { node: { text: string } }[] }; lineage: { id: string }[] };
}

withReplica('history reads from a streaming replica', () => {
  let first: TestServer;
  let second: TestServer;
  let replica: Client;
  let primary: Client;

  async function historyReads(server: TestServer): Promise<Record<string, number>> {
    const text = await (await fetch(`${server.url}/metrics`)).text();
    const counts: Record<string, number> = {};
    for (const [, on, value] of text.matchAll(/^database_history_reads_total\{on="(\w+)"\} (\d+)/gm)) counts[on] = Number(value);
    return counts;
  }

  /** Until the replica has replayed all the primary has logged: up to the insert position, the one a write records. */
  async function caughtUp(): Promise<void> {
    const [{ lsn }] = (await primary.query('SELECT pg_current_wal_insert_lsn()::text AS lsn')).rows;
    for (let attempt = 0; attempt < 600; attempt++) {
      const { rows } = await replica.query('SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done', [lsn]);
      if (rows[0].done) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('The replica did not catch up');
  }

  const pause = () => replica.query('SELECT pg_wal_replay_pause()');
  const resume = () => replica.query('SELECT pg_wal_replay_resume()');

  beforeAll(async () => {
    const databaseReplicaUrl = onReplica(process.env.TEST_DATABASE_URL!);
    first = await startTestServer({ databaseReplicaUrl, redisUrl: testRedisUrl() });
    second = await startTestServer({ databaseReplicaUrl, redisUrl: testRedisUrl() });
    replica = new Client({ connectionString: databaseReplicaUrl });
    primary = new Client({ connectionString: directUrl(process.env.TEST_DATABASE_URL!) });
    await Promise.all([replica.connect(), primary.connect()]);
  }, 60_000);

  afterAll(async () => {
    await resume().catch(() => undefined);
    await Promise.all([replica?.end(), primary?.end(), first?.close(), second?.close()]);
  });

  it('reports the replica and how far behind it is on /readyz, and stays ready while it lags', async () => {
    await caughtUp();
    const report = await readiness(first);
    expect(report).toMatchObject({ ready: true, replica: { ok: true } });
    expect(report.replica!.lagBytes).toBeGreaterThanOrEqual(0);
    await pause();
    try {
      const client = await first.newAccount('lagging');
      await postMessage(client, await createSession(client, 'behind'), 'written while the replica waits');
      const behind = await readiness(first);
      expect(behind.ready).toBe(true);
      expect(behind.replica!.lagBytes).toBeGreaterThan(0);
      expect(behind.replica!.lagSeconds).toBeGreaterThanOrEqual(0);
    } finally {
      await resume();
    }
  });

  it('serves an account that wrote nothing since from the replica, even while it lags', async () => {
    const reader = await first.newAccount('reader');
    const session = await createSession(reader, 'read only');
    await postMessage(reader, session, 'a quiet afternoon on the replica');
    await caughtUp();
    await pause();
    try {
      const before = await historyReads(second);
      const found = await new GraphQLTestClient(second.url, reader.apiKey).data<{ searchEvents: { totalCount: number } }>(SEARCH, { q: 'quiet afternoon' });
      expect(found.searchEvents.totalCount).toBe(1);
      const page = await new GraphQLTestClient(second.url, reader.apiKey).data<Page>(PAGE, { s: session });
      expect(page.session.events.edges.map((edge) => edge.node.text)).toEqual(['a quiet afternoon on the replica']);
      const after = await historyReads(second);
      // The search, its count, the transcript page and the lineage: all on the replica.
      expect((after.replica ?? 0) - (before.replica ?? 0)).toBe(4);
    } finally {
      await resume();
    }
  });

  it("reads a client's own writes back at once, on the process that wrote and on another, while the replica lags", async () => {
    const writer = await first.newAccount('writer');
    const session = await createSession(writer, 'mine');
    await postMessage(writer, session, 'the first line');
    await caughtUp();
    await pause();
    try {
      await postMessage(writer, session, 'a zebra crossing appears');
      for (const server of [first, second]) {
        const client = new GraphQLTestClient(server.url, writer.apiKey);
        const found = await client.data<{ searchEvents: { totalCount: number; edges: { node: { event: { text: string } } }[] } }>(SEARCH, { q: 'zebra' });
        expect(found.searchEvents.edges.map((edge) => edge.node.event.text)).toEqual(['a zebra crossing appears']);
        const page = await client.data<Page>(PAGE, { s: session });
        expect(page.session.events.edges.map((edge) => edge.node.text)).toEqual(['the first line', 'a zebra crossing appears']);
      }
    } finally {
      await resume();
    }
    await caughtUp();
    // Once the replica has the write, the writer's reads go back to it.
    const before = await historyReads(second);
    await new GraphQLTestClient(second.url, writer.apiKey).data(SEARCH, { q: 'zebra' });
    // The search and its count.
    expect(((await historyReads(second)).replica ?? 0) - (before.replica ?? 0)).toBe(2);
  });

  it('never answers a short transcript page, even when the replica lacks events whose write position was not recorded', async () => {
    const client = await first.newAccount('unrecorded');
    const session = await createSession(client, 'complete pages');
    await postMessage(client, session, 'one');
    await caughtUp();
    await pause();
    const redis = new Redis(testRedisUrl());
    try {
      await postMessage(client, session, 'two');
      // As if another process's write (the agent's) had not been recorded yet.
      const [{ account_id: accountId }] = (await primary.query('SELECT account_id FROM sessions WHERE id = $1', [session])).rows;
      await redis.del(`session-continuation:wrote:${accountId}`);
      const page = await new GraphQLTestClient(second.url, client.apiKey).data<Page>(PAGE, { s: session });
      expect(page.session.eventCount).toBe(2);
      expect(page.session.events.edges.map((edge) => edge.node.text)).toEqual(['one', 'two']);
    } finally {
      redis.disconnect();
      await resume();
    }
  });
});
