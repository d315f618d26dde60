import path from 'node:path';
import type { Pool } from 'pg';
import { DataSource, DataSourceOptions, EntityManager, EntitySchema, Logger } from 'typeorm';
import { migrations } from './migrations';
import { EmbeddedPostgres, startEmbeddedPostgres } from './embedded-postgres';
import { keepPreparedStatements } from './prepared';
import { DatabasePoolMode, detectPoolMode } from './pool-mode';
import { planWritesOn, prepareForWrites, useWritePool } from './write-transaction';

export interface DatabaseOptions {
  /** A `postgres://` URL; when absent, the embedded database in `dataDir` is used. */
  databaseUrl?: string;
  dataDir: string;
  /** The embedded database's buffer pool in megabytes; PostgreSQL's default (128) when absent. */
  embeddedBufferMb?: number;
  /** Connections to PostgreSQL; at least 2, since migrating holds one for the lock and uses another. */
  poolSize: number;
  /** Every module's entities, which the composition root lists. */
  entities: (Function | EntitySchema)[];
  /** How `databaseUrl` reaches PostgreSQL; found out at start when absent. */
  databasePoolMode?: DatabasePoolMode;
  /** Statements each connection prepares before its first use, for write transactions (see {@link prepareForWrites}). */
  preparedForWrites?: (manager: EntityManager) => string[];
}

export interface Database {
  dataSource: DataSource;
  /** Queries sent since start: how tests prove that a read costs a constant number of round trips. */
  queryCount(): number;
  /** True when running on the embedded PGlite database. */
  embedded: boolean;
  /** How the connections reach PostgreSQL (`session` on the embedded database). */
  poolMode: DatabasePoolMode;
  /** The connection pools: the data source's, and its write transactions' where they have one of their own. */
  pools: Pool[];
  close(): Promise<void>;
}

/** Raised when the server cannot start because of its database; the message says what to do. */
export class DatabaseStartError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DatabaseStartError';
  }
}

/**
 * The embedded database runs one backend session for all socket connections, so statements of
 * concurrent connections could interleave between their Parse and Bind messages. The server uses
 * one connection there; PGlite executes one statement at a time anyway, so nothing is lost.
 */
const EMBEDDED_POOL_SIZE = 1;
/** The server's connection plus a few for tools such as psql. */
const EMBEDDED_MAX_CONNECTIONS = 4;

/**
 * How long a pooled connection may stay idle before it is closed (`pg`'s default is 10 seconds). A
 * connection holds its prepared statements, their plans and the backend's warm caches, and a new
 * one for writes prepares a continuation's statements before its first use: closing connections
 * after every lull would pay all of that again at the next burst.
 */
const IDLE_CONNECTION_MS = 5 * 60_000;

/**
 * On most Linux systems PostgreSQL allocates through glibc's malloc, which hands the top of a
 * backend's heap back to the system whenever more than its trim threshold (128 KiB at first) lies
 * free there, and takes it back page by page on the next statement: one `brk` and dozens of page
 * faults a statement, in some backends and not others, depending on what they ran before
 * (docs/benchmarks.md). glibc raises its thresholds itself once a backend frees a block it had
 * mapped on its own, to that block's size and twice that, so each new connection makes a 1 MiB
 * value and drops it: smaller blocks then stay in the heap, larger ones raise the thresholds again
 * as they go. Every page of the value faults in once, which is what bounds its size.
 */
const SETTLE_ALLOCATOR = "SELECT length(repeat(repeat(' ', 1024), 1024))";

/**
 * `pg`'s hook for a new connection (`onConnect`): settles the backend's allocator before the
 * connection's first use. A failure leaves the connection as it was: its next query finds out.
 */
export async function settleAllocator(client: { query(text: string): Promise<unknown> }): Promise<void> {
  await client.query(SETTLE_ALLOCATOR).catch(() => undefined);
}

/** Any key: other processes of this application take the same one to migrate one at a time. */
const MIGRATION_LOCK_KEY = 7_318_004_211;

function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(an unparsable DATABASE_URL)';
  }
}

function describe(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return describe(error.errors[0]);
  return error instanceof Error ? error.message || error.name : String(error);
}

function unreachable(where: string, error: unknown): DatabaseStartError {
  return new DatabaseStartError(`Cannot reach the database at ${where}: ${describe(error)}. Check DATABASE_URL and that PostgreSQL is running.`, { cause: error });
}

/**
 * Connects to PostgreSQL (or starts the embedded database) and brings its schema up to date.
 * @throws DatabaseStartError when the database is unreachable or a migration fails.
 */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  let embedded: EmbeddedPostgres | null = null;
  let url = options.databaseUrl;
  if (!url) {
    const pgDataDir = path.join(options.dataDir, 'pgdata');
    try {
      embedded = await startEmbeddedPostgres(pgDataDir, EMBEDDED_MAX_CONNECTIONS, options.embeddedBufferMb);
    } catch (error) {
      throw new DatabaseStartError(
        `Cannot open the embedded database in ${pgDataDir}: ${describe(error)}. ` +
          'Check that the folder is writable and not used by another server process.',
        { cause: error },
      );
    }
    url = embedded.url;
  }

  const queryCounter = new QueryCountingLogger();
  const connection = {
    type: 'postgres',
    url,
    entities: options.entities,
    synchronize: false,
    installExtensions: false,
    uuidExtension: 'pgcrypto',
    poolSize: embedded ? EMBEDDED_POOL_SIZE : Math.max(2, options.poolSize),
    logging: ['query'],
    logger: queryCounter,
  } satisfies DataSourceOptions;
  const pooled = { connectionTimeoutMillis: 10_000, idleTimeoutMillis: IDLE_CONNECTION_MS };
  const dataSource = new DataSource({
    ...connection,
    migrations,
    migrationsTableName: 'schema_migrations',
    // PostgreSQL's default plan cache mode: a statement sent once is planned for its values, and a
    // kept one (`preparedQuery`) settles on a generic plan after five calls, which it may then keep
    // for the life of the connection, whatever the tables grow to; in write transactions, kept
    // statements run on their generic plans from the first call. Kept statements are therefore
    // written so that their generic plans use the indexes even on empty tables (test/query-plans).
    extra: { ...pooled, ...(embedded ? {} : { onConnect: settleAllocator }) },
  });
  let writes: DataSource | null = null;
  const closeAll = async () => {
    if (writes?.isInitialized) await writes.destroy();
    if (dataSource.isInitialized) await dataSource.destroy();
    await embedded?.stop();
  };

  let poolMode: DatabasePoolMode = 'session';
  try {
    await dataSource.initialize();
    if (!embedded) poolMode = options.databasePoolMode ?? (await detectPoolMode(dataSource));
  } catch (error) {
    await closeAll();
    throw unreachable(embedded ? 'the embedded database' : redactUrl(url), error);
  }

  try {
    // The embedded database belongs to this process alone; PostgreSQL may be shared by several.
    if (embedded) await dataSource.runMigrations({ transaction: 'each' });
    else await runMigrationsExclusively(dataSource);
  } catch (error) {
    await closeAll();
    throw new DatabaseStartError(`A database migration failed: ${describe(error)}. Nothing of it was applied.`, {
      cause: error,
    });
  }

  if (!embedded) keepPreparedStatements(dataSource, poolMode);
  if (!embedded && poolMode === 'session') {
    // Write transactions keep their statements here, planned with settings of their own: on
    // connections of their own, which take the settings once rather than in every transaction.
    writes = new DataSource({
      ...connection,
      extra: { ...pooled, onConnect: (client: Parameters<typeof planWritesOn>[0]) => settleAllocator(client).then(() => planWritesOn(client)) },
    });
    try {
      await writes.initialize();
    } catch (error) {
      await closeAll();
      throw unreachable(redactUrl(url), error);
    }
    keepPreparedStatements(writes, poolMode);
    useWritePool(dataSource, writes);
  }
  if (writes && options.preparedForWrites) prepareForWrites(writes, options.preparedForWrites(dataSource.manager));
  const pools = [dataSource, ...(writes ? [writes] : [])].map((source) => (source.driver as unknown as { master: Pool }).master);
  return { dataSource, embedded: embedded !== null, poolMode, pools, close: closeAll, queryCount: () => queryCounter.queries };
}

/**
 * Connects to a streaming replica of the database: read-only, no migrations (they arrive from the
 * primary). Statements are kept or unnamed as on the primary, or as found out when unset.
 * @throws DatabaseStartError when the replica is unreachable.
 */
export async function openReplica(options: DatabaseOptions & { replicaUrl: string }): Promise<DataSource> {
  const replica = new DataSource({
    type: 'postgres',
    url: options.replicaUrl,
    entities: options.entities,
    synchronize: false,
    installExtensions: false,
    uuidExtension: 'pgcrypto',
    poolSize: Math.max(2, options.poolSize),
    extra: { connectionTimeoutMillis: 10_000, onConnect: settleAllocator },
  });
  try {
    await replica.initialize();
    keepPreparedStatements(replica, options.databasePoolMode ?? (await detectPoolMode(replica)));
    return replica;
  } catch (error) {
    if (replica.isInitialized) await replica.destroy();
    throw new DatabaseStartError(
      `Cannot reach the replica at ${redactUrl(options.replicaUrl)}: ${describe(error)}. Check DATABASE_REPLICA_URL and that the standby is running.`,
      { cause: error },
    );
  }
}

/** Counts queries instead of printing them; failures reach their callers as errors. */
class QueryCountingLogger implements Logger {
  queries = 0;

  logQuery(): void {
    this.queries += 1;
  }

  logQueryError(): void {}

  logQuerySlow(): void {}

  logSchemaBuild(): void {}

  logMigration(): void {}

  log(): void {}
}

/**
 * Several server processes may start at once against one database: they migrate in turn. The lock
 * belongs to a transaction kept open meanwhile, not to the connection, so that it also holds
 * through a transaction pooler (which would run an unlock on whichever backend is free).
 */
async function runMigrationsExclusively(dataSource: DataSource): Promise<void> {
  const lockHolder = dataSource.createQueryRunner();
  await lockHolder.connect();
  try {
    await lockHolder.startTransaction();
    await lockHolder.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    // Ending the transaction releases the lock.
    await lockHolder.rollbackTransaction().catch(() => undefined);
    await lockHolder.release();
  }
}
