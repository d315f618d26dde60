import { Client, Pool } from 'pg';
import { measure } from './stats';

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

/** A new, empty database of this run beside the one `serverUrl` names, which is never written to. */
export async function createBenchDatabase(serverUrl: string): Promise<BenchDatabase> {
  const name = `sc_bench_${Date.now()}_${process.pid}`;
  await withClient(serverUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await withClient(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/** `work` measured as `measure` does, through a pool of as many connections as clients, opened before the clock starts. */
export async function rawThroughput(url: string, clients: number, work: (pool: Pool, index: number) => Promise<unknown>, count: number) {
  const pool = new Pool({ connectionString: url, max: clients });
  try {
    // Connections open before the clock starts, as the server's pool already is.
    const connected = await Promise.all(Array.from({ length: clients }, () => pool.connect()));
    connected.forEach((client) => client.release());
    return await measure(clients, count, (index) => work(pool, index));
  } finally {
    await pool.end();
  }
}
