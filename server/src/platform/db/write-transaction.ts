/// <reference path="./pg-utils.d.ts" />
import { Connection, FieldDef, PoolClient, Query } from 'pg';
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
  handleCommandComplete(message: unknown, connection: Connection): void;
  /** Starts the next statement's result once the current one has completed. */
  _checkForMultirow(): void;
}

interface ResultSet {
  rows: Record<string, unknown>[];
}

/** What a result of `pg` reads rows by, built from a row description; not in its type declarations. */
interface RowReading {
  fields: FieldDef[];
  _parsers: unknown[];
  _prebuiltEmptyResultObject: Record<string, null>;
  addFields(fields: FieldDef[]): void;
}

type RowShape = Pick<RowReading, 'fields' | '_parsers' | '_prebuiltEmptyResultObject'>;

/**
 * The rows each statement a connection keeps answers with, as `pg` reads them (columns, their
 * parsers, an empty row), by the statement's text: built from its row description once, not for
 * every result, and the statement is not described again. A description whose column types
 * differ (the schema changed) builds it again.
 */
const rowShapes = new WeakMap<Connection, Map<string, RowShape>>();

function shapesOf(connection: Connection): Map<string, RowShape> {
  let shapes = rowShapes.get(connection);
  if (!shapes) {
    shapes = new Map();
    rowShapes.set(connection, shapes);
  }
  return shapes;
}

function sameColumns(known: FieldDef[], described: FieldDef[]): boolean {
  if (known.length !== described.length) return false;
  for (let index = 0; index < known.length; index++) {
    if (known[index].dataTypeID !== described[index].dataTypeID || known[index].format !== described[index].format) return false;
  }
  return true;
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
export const pipelinedName = (text: string) => `sc_pipelined_${statementHash(text)}`;

/** Batches sent to PostgreSQL and not answered yet, over every connection of the process. */
let batchesAwaited = 0;

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
  /** The shapes of the connection the batch went to. */
  private shapes: Map<string, RowShape> | null = null;
  /** The statements sent without a Describe, by position: kept ones whose rows' shape is known. */
  private readonly undescribed = new Map<number, RowShape>();
  /** How many statements have been answered completely: the position of the one being answered. */
  private completed = 0;
  /** The statement the current result reads the rows of. */
  private shaped = -1;
  /** Whether the batch was sent and is not answered yet. */
  private awaited = false;

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
    const shapes = shapesOf(connection);
    this.shapes = shapes;
    connection.stream.cork();
    try {
      for (const [index, { text, values, name }] of this.statements.entries()) {
        const kept = name !== '' && held.get(name) === 'parsed';
        if (name === '' || (!kept && !this.parsing.includes(name))) {
          // Closing a statement that does not exist is no error: after a failed batch its fate is unknown.
          if (held.get(name) === 'unknown') connection.close({ type: 'S', name }, true);
          connection.parse({ text, name, types: [] }, true);
          if (name !== '') this.parsing.push(name);
        }
        connection.bind({ portal: '', statement: name, values: values as string[], valueMapper: prepareValue }, true);
        const shape = kept ? shapes.get(text) : undefined;
        if (shape) this.undescribed.set(index, shape);
        else connection.describe({ type: 'P', name: '' }, true);
        connection.execute({ portal: '' }, true);
      }
      connection.sync();
    } finally {
      this.awaited = true;
      batchesAwaited++;
      // While other batches are out, sent once this turn of the event loop has run its callbacks:
      // the batches of every request answered in the turn then leave together, and the backends
      // they wake run after this process is through, rather than taking a core from it halfway
      // (under 16 clients a message cost this process 0.73 ms of CPU instead of 0.86 to 1.17).
      // Alone, sent at once: waiting would only delay it.
      if (batchesAwaited > 1) setImmediate(() => connection.stream.uncork());
      else connection.stream.uncork();
    }
  }

  /** Counted out once, whether the batch was answered or its connection failed. */
  private settle(): void {
    if (!this.awaited) return;
    this.awaited = false;
    batchesAwaited--;
  }

  /** Starts the result of the statement being answered: with `shape`, or else built from `described` and kept. */
  private startResult(shape: RowShape | undefined, described: FieldDef[] | null): void {
    (Query.prototype as unknown as QueryHandlers)._checkForMultirow.call(this);
    const result = (this as unknown as { _result: RowReading })._result;
    if (shape && (described === null || sameColumns(shape.fields, described))) {
      result.fields = shape.fields;
      result._parsers = shape._parsers;
      result._prebuiltEmptyResultObject = shape._prebuiltEmptyResultObject;
    } else if (described) {
      result.addFields(described);
      const { text, name } = this.statements[this.completed];
      const { fields, _parsers, _prebuiltEmptyResultObject } = result;
      if (name !== '') this.shapes?.set(text, { fields, _parsers, _prebuiltEmptyResultObject });
    }
    (this as unknown as { _accumulateRows: boolean })._accumulateRows = true;
    this.shaped = this.completed;
  }

  handleRowDescription(message: { fields: FieldDef[] }): void {
    this.startResult(this.shapes?.get(this.statements[this.completed].text), message.fields);
  }

  handleDataRow(message: unknown): void {
    if (this.shaped !== this.completed) {
      const shape = this.undescribed.get(this.completed);
      if (shape) this.startResult(shape, null);
    }
    (Query.prototype as unknown as { handleDataRow(message: unknown): void }).handleDataRow.call(this, message);
  }

  handleCommandComplete(message: unknown, connection: Connection): void {
    (Query.prototype as unknown as QueryHandlers).handleCommandComplete.call(this, message, connection);
    this.completed++;
  }

  handleError(error: Error, connection: Connection): void {
    this.settle();
    // Parsed again on their next use: one this batch parsed may or may not exist, and one kept
    // from before may be why it failed (its table changed the type of a column it returns).
    const held = heldBy(connection);
    for (const { name } of this.statements) if (name !== '') held.set(name, 'unknown');
    (Query.prototype as unknown as QueryHandlers).handleError.call(this, error, connection);
  }

  handleReadyForQuery(connection: Connection): void {
    this.settle();
    for (const name of this.parsing) heldBy(connection).set(name, 'parsed');
    (Query.prototype as unknown as QueryHandlers).handleReadyForQuery.call(this, connection);
  }
}

export function runBatch(runner: QueryRunner, statements: Statement[]): Promise<ResultSet[]> {
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
      ...statements.map(({ text, values }) => ({ text, values, name: this.name(text) })),
    ]);
    return results.slice(1).map((result) => result.rows);
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
 * How write transactions plan their kept statements: set once on each connection of the write
 * pool (`useWritePool`), which serves write transactions only, rather than in every transaction.
 * Generic plans (see the query-plans test): otherwise PostgreSQL plans each statement afresh for
 * its first five runs on a connection, and a write that is rare on each pooled connection (a
 * continuation) would pay that planning nearly every time. And no sequential scans: a connection
 * keeps the plan it made first, often on a new database's empty tables, where reading the whole
 * table looks cheapest and stays the plan as the table grows; every kept statement finds its rows
 * by index.
 */
export const WRITE_PLAN_SETTINGS = 'SET plan_cache_mode = force_generic_plan; SET enable_seqscan = off';

/**
 * `pg`'s hook for a new connection of the write pool: the plan settings, for the connection's
 * life. A connection that cannot take them fails, rather than plan writes otherwise.
 */
export async function planWritesOn(client: { query(text: string): Promise<unknown> }): Promise<void> {
  await client.query(WRITE_PLAN_SETTINGS);
}

/** The pool of connections each data source's write transactions take, where they have one of their own. */
const writePools = new WeakMap<DataSource, DataSource>();

/** Has `dataSource`'s write transactions take their connections from `writes`, whose connections run {@link planWritesOn}. */
export function useWritePool(dataSource: DataSource, writes: DataSource): void {
  writePools.set(dataSource, writes);
}

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
  const pool = writePools.get(dataSource) ?? dataSource;
  const runner = pool.createQueryRunner();
  await runner.connect();
  const transaction: OpenableTransaction = pipelinesWrites(pool)
    ? new PipelinedWriteTransaction(runner, keepsPreparedStatements(pool))
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
 * Has every connection of a write pool (`useWritePool`) hold `texts` as write transactions keep
 * them, their generic plans made, before its first use: a statement each pooled connection runs
 * rarely (a continuation's lock) would otherwise be parsed and planned in its write's round trip,
 * most times it runs.
 */
export function prepareForWrites(dataSource: DataSource, texts: string[]): void {
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
    const script = named.flatMap(({ text, name }) => [`PREPARE ${name} AS ${text}`, `EXPLAIN EXECUTE ${name}(${parameterNulls(text)})`]).join(';\n');
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
