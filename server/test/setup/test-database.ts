import { copyFile, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { openDatabase } from '../../src/platform/db/database';
import { entities } from '../../src/modules/entities';

/** How the run's test servers reach their database; set in the environment by the global setup. */
export interface TestDatabase {
  /**
   * Per test worker, a migrated PostgreSQL database of this run (when DATABASE_URL is set): `url`
   * through the pooler when there is one, `adminUrl` the same database reached directly, to
   * create and drop databases beside it.
   */
  workerUrls?: { url: string; adminUrl: string }[];
  /** The migrated PostgreSQL database the workers' databases were copied from, to copy again (isolatedServerDatabase). */
  templateDatabase?: string;
  /** A migrated embedded data folder that each test server copies (when it is not). */
  templateDir?: string;
  drop(): Promise<void>;
}

/**
 * The embedded test databases' buffer pool, in megabytes: a test's data fits in a few, and
 * PostgreSQL clears the whole pool as it starts, which at the default 128 MB takes longer than a
 * test server's every other step. Test servers start some two hundred times a run.
 */
export const TEST_EMBEDDED_BUFFER_MB = 16;

async function migrate(databaseUrl: string | undefined, dataDir: string): Promise<void> {
  const database = await openDatabase({ databaseUrl, dataDir, embeddedBufferMb: TEST_EMBEDDED_BUFFER_MB, poolSize: 2, entities, databasePoolMode: testPoolMode() });
  await database.close();
}

/**
 * With DATABASE_POOLER_URL (the same PostgreSQL behind a transaction pooler, e.g. PgBouncer in
 * `pool_mode = transaction`), test servers connect through the pooler in transaction mode and
 * deliver across processes through Redis; databases are still created and dropped directly.
 */
export function testPoolMode(): 'transaction' | undefined {
  return process.env.DATABASE_POOLER_URL ? 'transaction' : undefined;
}

/** `databaseUrl`'s database reached directly, past the pooler when there is one: for statements that need one backend throughout. */
export function directUrl(databaseUrl: string): string {
  const url = new URL(process.env.TEST_DATABASE_ADMIN_URL!);
  url.pathname = new URL(databaseUrl).pathname;
  return url.toString();
}

/** `databaseUrl`'s database, through the pooler when there is one. */
function throughPooler(databaseUrl: string): string {
  const pooler = process.env.DATABASE_POOLER_URL;
  if (!pooler) return databaseUrl;
  const url = new URL(pooler);
  url.pathname = new URL(databaseUrl).pathname;
  return url.toString();
}

/** Test files running at once, each worker on a database of its own (see jest.config.js). */
export const TEST_WORKERS = 2;

async function adminQuery(serverUrl: string, text: string): Promise<void> {
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(text);
  } finally {
    await admin.end();
  }
}

/**
 * A new, migrated database for one test run on the PostgreSQL of DATABASE_URL, copied once per
 * test worker (files that count rows must not see another file's), or a migrated embedded data
 * folder to copy: each test file then runs its server on PGlite in-process, exactly as
 * `npm start` does.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  const scratch = await mkdtemp(path.join(tmpdir(), 'sc-test-'));
  if (!serverUrl) {
    await migrate(undefined, scratch);
    return { templateDir: scratch, drop: () => rm(scratch, { recursive: true, force: true }) };
  }
  const name = `sc_test_${Date.now()}_${process.pid}`;
  const named = (database: string) => {
    const url = new URL(serverUrl);
    url.pathname = `/${database}`;
    return url.toString();
  };
  await adminQuery(serverUrl, `CREATE DATABASE ${name}`);
  // Directly, not through a pooler: a pooler would keep backends on it, and a database being
  // accessed cannot be copied. (test/platform/pooler.test.ts migrates through the pooler.)
  await migrate(named(name), scratch);
  const workers = Array.from({ length: TEST_WORKERS }, (_, index) => `${name}_w${index + 1}`);
  // A copy of the migrated database is a file copy: far quicker than migrating each.
  for (const worker of workers) await adminQuery(serverUrl, `CREATE DATABASE ${worker} TEMPLATE ${name}`);
  return {
    workerUrls: workers.map((worker) => ({ url: throughPooler(named(worker)), adminUrl: named(worker) })),
    templateDatabase: name,
    async drop() {
      await rm(scratch, { recursive: true, force: true });
      for (const database of [...workers, name]) await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    },
  };
}

/** A test server's database settings, and `drop` to remove what they hold once the server has stopped. */
export interface ServerDatabase {
  databaseUrl?: string;
  dataDir: string;
  drop(): Promise<void>;
}

/** The database settings for one test server: the shared PostgreSQL database, or a fresh copy of the template. */
export async function testServerDatabase(): Promise<ServerDatabase> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'sc-test-data-'));
  // An embedded copy weighs tens of megabytes: a run of the suite would leave gigabytes behind.
  const drop = () => rm(dataDir, { recursive: true, force: true });
  const url = process.env.TEST_DATABASE_URL;
  if (url) return { databaseUrl: url, dataDir, drop };
  const templateDir = process.env.TEST_TEMPLATE_DIR;
  if (!templateDir) throw new Error('The global setup sets TEST_DATABASE_URL or TEST_TEMPLATE_DIR');
  await copyFolder(templateDir, dataDir);
  return { dataDir, drop };
}

/**
 * Copies a folder and everything in it. Node's `fs.cp` checks each entry several times over: in a
 * run of the suite its copies of the template (1,100 files) took a median of 0.8 s each and these
 * 0.13 s, and a run makes some hundred of them.
 */
async function copyFolder(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true });
  const entries = await readdir(from, { withFileTypes: true });
  await Promise.all(
    entries.map((entry) => {
      const source = path.join(from, entry.name);
      const target = path.join(to, entry.name);
      return entry.isDirectory() ? copyFolder(source, target) : copyFile(source, target);
    }),
  );
}

/**
 * A database of its own for one test server, for servers that run an agent: their workers claim
 * any queued run in the database, so they must not share one with other suites. On PostgreSQL a
 * copy of the run's migrated database (a file copy, a fraction of migrating one), or with `empty`
 * an empty one that the server migrates on start; embedded, a copy of the template as always.
 */
export async function isolatedServerDatabase({ empty = false }: { empty?: boolean } = {}): Promise<ServerDatabase> {
  if (!process.env.TEST_DATABASE_URL) return testServerDatabase();
  const shared = process.env.TEST_DATABASE_ADMIN_URL!;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'sc-test-data-'));
  const name = `sc_agent_${Date.now()}_${process.pid}_${Math.floor(Math.random() * 1e6)}`;
  const url = new URL(shared);
  const admin = new Client({ connectionString: shared });
  await admin.connect();
  await admin.query(empty ? `CREATE DATABASE ${name}` : `CREATE DATABASE ${name} TEMPLATE ${process.env.TEST_TEMPLATE_DATABASE}`);
  await admin.end();
  url.pathname = `/${name}`;
  return {
    databaseUrl: throughPooler(url.toString()),
    dataDir,
    async drop() {
      await rm(dataDir, { recursive: true, force: true });
      const client = new Client({ connectionString: shared });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
