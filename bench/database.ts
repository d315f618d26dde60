import { createHash } from 'node:crypto';
import { Client, Pool, QueryConfig } from 'pg';
import { measure } from './stats';
import { settleAllocator } from '../server/src/platform/db/database';

export interface BenchDatabase {
  /** The URL of the new database, on the same server as the one given. */
  url: string;
  drop(): Promise<void>;
}

/** Runs `work` on a connection of its own, closed afterwards. */
export async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** How long a drop waits for the database's connections to close before it terminates them. */
const CLOSING_WAIT_MS = 5_000;
const CLOSING_POLL_MS = 20;

/** Databases this process created, for names of their own. */
let databasesCreated = 0;

/** A new, empty database of this run beside the one `serverUrl` names, which is never written to. */
export async function createBenchDatabase(serverUrl: string): Promise<BenchDatabase> {
  const name = `sc_bench_${Date.now()}_${process.pid}_${++databasesCreated}`;
  await withClient(serverUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await withClient(serverUrl, async (client) => {
        // A pool just ended is still closing its connections: terminated by the drop, one would
        // report it as an error on a pool nothing listens to any more, and end the process.
        for (let waited = 0; waited < CLOSING_WAIT_MS; waited += CLOSING_POLL_MS) {
          const { rows } = await client.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
          if (rows[0].n === 0) break;
          await new Promise((resolve) => setTimeout(resolve, CLOSING_POLL_MS));
        }
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      });
    },
  };
}

/** The raw sides' pools, one per database and size, kept open through a run as the server keeps its own. */
const rawPools = new Map<string, Pool>();

/**
 * `work` measured as `measure` does, through a pool of as many connections as clients, opened
 * before the clock starts and kept for the rest of the run: on connections of a round of their
 * own, each statement would be parsed and planned afresh in every round, a cost the server's
 * pooled connections do not pay.
 */
export async function rawThroughput(url: string, clients: number, work: (pool: Pool, index: number) => Promise<unknown>, count: number) {
  const key = `${clients} ${url}`;
  let pool = rawPools.get(key);
  if (!pool) {
    pool = new Pool({ connectionString: url, max: clients, pipeline: true, idleTimeoutMillis: 0, onConnect: settleAllocator });
    rawPools.set(key, pool);
    const connected = await Promise.all(Array.from({ length: clients }, () => pool!.connect()));
    connected.forEach((client) => client.release());
  }
  const open = pool;
  return await measure(clients, count, (index) => work(open, index));
}

/** Closes the pools `rawThroughput` opened. */
export async function closeRawPools(): Promise<void> {
  await Promise.all([...rawPools.values()].map((pool) => pool.end()));
  rawPools.clear();
}

/** A statement and its values. */
export type Statement = [text: string, values?: unknown[]];

/** A statement kept prepared on each connection under a name of its text, as the server keeps its own. */
function prepared([text, values]: Statement): QueryConfig {
  return { name: `raw_${createHash('sha1').update(text).digest('hex')}`, text, values };
}

/**
 * A transaction in two round trips, as the server writes: BEGIN with `read` (which locks what the
 * writes depend on), then the statements `write` makes of its rows, with COMMIT, each kept prepared.
 * The statements of a round trip go out together, the connection pipelining them (`pipeline: true` on the pool's
 * clients): the least time any implementation waits on the database for the same writes. Returns
 * the number of statements sent.
 */
export async function inTwoRoundTrips(pool: Pool, read: Statement, write: (rows: Record<string, unknown>[]) => Statement[]): Promise<number> {
  if (!pool.options.pipeline) throw new Error('inTwoRoundTrips needs a pool whose clients pipeline (pipeline: true)');
  const client = await pool.connect();
  try {
    const [, { rows }] = await Promise.all([client.query('BEGIN'), client.query(prepared(read))]);
    const statements = write(rows);
    await Promise.all([...statements.map((statement) => client.query(prepared(statement))), client.query('COMMIT')]);
    return statements.length + 3;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
