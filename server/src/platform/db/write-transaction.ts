/// <reference path="./pg-utils.d.ts" />
import { Connection, PoolClient, Query } from 'pg';
import { prepareValue } from 'pg/lib/utils';
import { DataSource, EntityManager, QueryFailedError, QueryRunner } from 'typeorm';
import { keepsPreparedStatements, pipelinesWrites, preparedQuery, statementHash } from './prepared';

/**
 * A write transaction whose first statement opens it and whose last statement commits it. On
 * PostgreSQL, BEGIN travels with the first statement and COMMIT with the last, in one round trip
 * each: the extended query protocol runs every message up to a Sync in order, so a short
 * transaction costs two round trips fewer. Statements in between go through `manager` as usual.
 */
export interface WriteTransaction {
  readonly manager: EntityManager;
  /** Opens the transaction and runs `statements` in order, each kept prepared; the rows of each. */
  begin(...statements: Sql[]): Promise<Record<string, unknown>[][]>;
  /** Runs `text`, a statement kept prepared, and commits; nothing is committed if it fails. */
  commit(text: string, values: unknown[]): Promise<void>;
}

/** A parameterized statement: `$n` in `text` is `values[n - 1]`. */
export interface Sql {
  text: string;
  values: unknown[];
}

interface Statement extends Sql {
  /** Kept prepared under this name; '' for the unnamed statement. */
  name: string;
}

/** What the query object of `pg` does with the backend's answers; not in its type declarations. */
interface QueryHandlers {
  handleError(error: Error, connection: Connection): void;
  handleReadyForQuery(connection: Connection): void;
}

interface ResultSet {
  rows: Record<string, unknown>[];
}

/** Names of the statements a connection holds: 'parsed', or 'unknown' after a batch that failed. */
const heldStatements = new WeakMap<Connection, Map<string, 'parsed' | 'unknown'>>();

function heldBy(connection: Connection): Map<string, 'parsed' | 'unknown'> {
  let held = heldStatements.get(connection);
  if (!held) {
    held = new Map();
    heldStatements.set(connection, held);
  }
  return held;
}

/** A name of its own: `pg` tracks the statements it prepares itself, and two trackers must not share a name. */
const pipelinedName = (text: string) => `sc_pipelined_${statementHash(text)}`;

const batchText = (statements: Sql[]) => statements.map((statement) => statement.text).join(';\n');

/**
 * Several statements sent as one batch with one Sync: PostgreSQL runs them in order and, after an
 * error, skips the rest. Results come back one per statement, as `pg` collects them for a
 * multi-statement query.
 *
 * Not `pg`'s own pipeline mode (`pipeline: true`, in the installed 8.23): that is a setting of the whole
 * connection, so every query of every pooled connection, TypeORM's included, would be pipelined, and
 * it refuses custom query classes; it also ends each query with a Sync of its own, so the statements
 * after a failed one are not skipped but fail one by one on the aborted transaction. This class is
 * why `pg` is pinned exactly: it relies on `Query`'s undeclared handlers.
 */
class PipelinedQuery extends Query {
  private readonly parsing: string[] = [];

  constructor(
    private readonly statements: Statement[],
    callback: (error: Error | undefined, results: ResultSet | ResultSet[]) => void,
  ) {
    // A text rather than a config object: `pg` copies a config's every property descriptor.
    super('', undefined, callback as never);
    this.submit = (connection: Connection) => this.send(connection);
  }

  /**
   * The batch as one text, for whoever reads it (tracing records it); joined only then, since the
   * statements are sent one by one and a continuation's come to kilobytes.
   */
  get text(): string {
    return batchText(this.statements);
  }

  /** `Query`'s constructor sets the text; this one is always the statements'. */
  set text(_text: string) {}

  private send(connection: Connection): void {
    const held = heldBy(connection);
    connection.stream.cork();
    try {
      for (const { text, values, name } of this.statements) {
        if (name === '' || (held.get(name) !== 'parsed' && !this.parsing.includes(name))) {
          // Closing a statement that does not exist is no error: after a failed batch its fate is unknown.
          if (held.get(name) === 'unknown') connection.close({ type: 'S', name }, true);
          connection.parse({ text, name, types: [] }, true);
          if (name !== '') this.parsing.push(name);
        }
        connection.bind({ portal: '', statement: name, values: values as string[], valueMapper: prepareValue }, true);
        connection.describe({ type: 'P', name: '' }, true);
        connection.execute({ portal: '' }, true);
      }
      connection.sync();
    } finally {
      connection.stream.uncork();
    }
  }

  handleError(error: Error, connection: Connection): void {
    for (const name of this.parsing) heldBy(connection).set(name, 'unknown');
    (Query.prototype as unknown as QueryHandlers).handleError.call(this, error, connection);
  }

  handleReadyForQuery(connection: Connection): void {
    for (const name of this.parsing) heldBy(connection).set(name, 'parsed');
    (Query.prototype as unknown as QueryHandlers).handleReadyForQuery.call(this, connection);
  }
}

function runBatch(runner: QueryRunner, statements: Statement[]): Promise<ResultSet[]> {
  // Logged as `preparedQuery` passes a kept statement to TypeORM: with its name.
  for (const { text, values, name } of statements) {
    runner.connection.logger.logQuery(name ? ({ name, text } as unknown as string) : text, values, runner);
  }
  const client = (runner as unknown as { databaseConnection: PoolClient }).databaseConnection;
  return new Promise((resolve, reject) => {
    client.query(
      new PipelinedQuery(statements, (error, results) => {
        if (error) {
          reject(new QueryFailedError(batchText(statements), statements.flatMap((statement) => statement.values), error));
        } else {
          resolve(Array.isArray(results) ? results : [results]);
        }
      }),
    );
  });
}

/**
 * Tells TypeORM whether a transaction is open on the runner, so that an entity write inside one
 * (`save`, say) does not start and commit a transaction of its own.
 */
function markActive(runner: QueryRunner, active: boolean): void {
  (runner as { isTransactionActive: boolean }).isTransactionActive = active;
}

interface OpenableTransaction extends WriteTransaction {
  /** Rolls back what is still open: after a refusal, a failure, or work that wrote nothing. */
  rollbackIfOpen(): Promise<void>;
}

/**
 * On PostgreSQL: BEGIN and COMMIT share round trips with the first and last statements. Behind a
 * transaction pooler the statements go unnamed, parsed with each batch.
 */
class PipelinedWriteTransaction implements OpenableTransaction {
  /** Whether a BEGIN was sent and no COMMIT has succeeded since. */
  private open = false;

  constructor(
    private readonly runner: QueryRunner,
    private readonly keepsStatements: boolean,
  ) {}

  private name(text: string): string {
    return this.keepsStatements ? pipelinedName(text) : '';
  }

  get manager(): EntityManager {
    return this.runner.manager;
  }

  async begin(...statements: Sql[]): Promise<Record<string, unknown>[][]> {
    this.open = true;
    markActive(this.runner, true);
    const results = await runBatch(this.runner, [
      { text: 'BEGIN', values: [], name: '' },
      ...(this.keepsStatements ? [{ text: KEPT_PLAN_SETTINGS, values: [], name: pipelinedName(KEPT_PLAN_SETTINGS) }] : []),
      ...statements.map(({ text, values }) => ({ text, values, name: this.name(text) })),
    ]);
    return results.slice(this.keepsStatements ? 2 : 1).map((result) => result.rows);
  }

  async commit(text: string, values: unknown[]): Promise<void> {
    await runBatch(this.runner, [
      { text, values, name: this.name(text) },
      { text: 'COMMIT', values: [], name: '' },
    ]);
    this.open = false;
    markActive(this.runner, false);
  }

  async rollbackIfOpen(): Promise<void> {
    if (!this.open) return;
    // Also after a failed COMMIT, which ended the transaction: ROLLBACK then only warns.
    await this.runner.query('ROLLBACK');
    this.open = false;
    markActive(this.runner, false);
  }
}

/**
 * How write transactions plan their kept statements, for the rest of the transaction. Generic
 * plans (see the query-plans test): otherwise PostgreSQL plans each statement afresh for its first
 * five runs on a connection, and a write that is rare on each pooled connection (a continuation)
 * would pay that planning nearly every time. And no sequential scans: a connection keeps the plan
 * it made first, often on a new database's empty tables, where reading the whole table looks
 * cheapest and stays the plan as the table grows; every kept statement finds its rows by index.
 */
export const KEPT_PLAN_SETTINGS = "SELECT set_config('plan_cache_mode', 'force_generic_plan', true), set_config('enable_seqscan', 'off', true)";

/** Elsewhere (the embedded database): TypeORM's own transaction statements, one round trip each. */
class PlainWriteTransaction implements OpenableTransaction {
  constructor(private readonly runner: QueryRunner) {}

  get manager(): EntityManager {
    return this.runner.manager;
  }

  async begin(...statements: Sql[]): Promise<Record<string, unknown>[][]> {
    await this.runner.startTransaction();
    const results: Record<string, unknown>[][] = [];
    for (const { text, values } of statements) results.push(await preparedQuery(this.runner.manager, text, values));
    return results;
  }

  async commit(text: string, values: unknown[]): Promise<void> {
    await preparedQuery(this.runner.manager, text, values);
    await this.runner.commitTransaction();
  }

  async rollbackIfOpen(): Promise<void> {
    if (this.runner.isTransactionActive) await this.runner.rollbackTransaction();
  }
}

/**
 * Runs `work` in a write transaction. It commits with `commit`; if `work` returns without
 * committing (it refused, or found the work already done) or throws, the transaction is rolled back.
 */
export async function inWriteTransaction<T>(dataSource: DataSource, work: (transaction: WriteTransaction) => Promise<T>): Promise<T> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  const transaction: OpenableTransaction = pipelinesWrites(dataSource)
    ? new PipelinedWriteTransaction(runner, keepsPreparedStatements(dataSource))
    : new PlainWriteTransaction(runner);
  let broken: Error | undefined;
  try {
    return await work(transaction);
  } finally {
    try {
      await transaction.rollbackIfOpen();
    } catch (error) {
      // The connection cannot say where it stands: the pool must not hand it out again.
      broken = error as Error;
    }
    await (runner as unknown as { releasePostgresConnection(error?: Error): Promise<void> }).releasePostgresConnection(broken);
  }
}

/**
 * Has every connection of `dataSource`'s pool hold `texts` as write transactions keep them, their
 * generic plans made, before its first use: a statement each pooled connection runs rarely (a
 * continuation's lock) would otherwise be parsed and planned in its write's round trip, most
 * times it runs. Only where write transactions keep their statements.
 */
export function prepareForWrites(dataSource: DataSource, texts: string[]): void {
  if (!keepsPreparedStatements(dataSource)) return;
  const pool = (dataSource.driver as unknown as { master: { on(event: 'acquire', listener: (client: PoolClient) => void): void } }).master;
  const visited = new WeakSet<Connection>();
  // Sent before the first query of whoever acquired the connection, in the same queue.
  pool.on('acquire', (client) => {
    const connection = (client as unknown as { connection: Connection }).connection;
    if (visited.has(connection)) return;
    visited.add(connection);
    const held = heldBy(connection);
    const named = texts.map((text) => ({ text, name: pipelinedName(text) })).filter(({ name }) => !held.has(name));
    if (named.length === 0) return;
    // One query message runs as one implicit transaction: the settings end with it.
    const script = [
      KEPT_PLAN_SETTINGS,
      ...named.flatMap(({ text, name }) => [`PREPARE ${name} AS ${text}`, `EXPLAIN EXECUTE ${name}(${parameterNulls(text)})`]),
    ].join(';\n');
    client.query(new PreparingQuery(script, named.map(({ name }) => name), held));
  });
}

/**
 * A script that prepares statements, telling the connection's record of what it holds as soon as
 * it ends: `pg` starts the next query in its queue before a promise's callbacks could.
 */
class PreparingQuery extends Query {
  constructor(
    text: string,
    private readonly names: string[],
    private readonly held: Map<string, 'parsed' | 'unknown'>,
  ) {
    // A preparation that fails costs only its head start: each statement is parsed on its first use, as before.
    super({ text }, () => undefined);
  }

  handleError(error: Error, connection: Connection): void {
    // Some may be prepared: a batch closes each before it parses it again.
    for (const name of this.names) this.held.set(name, 'unknown');
    (Query.prototype as unknown as QueryHandlers).handleError.call(this, error, connection);
  }

  handleReadyForQuery(connection: Connection): void {
    for (const name of this.names) this.held.set(name, 'parsed');
    (Query.prototype as unknown as QueryHandlers).handleReadyForQuery.call(this, connection);
  }
}

/** `NULL` for each of a statement's parameters, to plan it generically without values. */
function parameterNulls(text: string): string {
  const count = Math.max(0, ...[...text.matchAll(/\$(\d+)/g)].map((match) => Number(match[1])));
  return Array.from({ length: count }, () => 'NULL').join(', ');
}
