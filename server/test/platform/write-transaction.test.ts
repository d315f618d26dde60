import { randomBytes } from 'node:crypto';
import { QueryFailedError } from 'typeorm';
import { Database, openDatabase } from '../../src/platform/db/database';
import { inWriteTransaction } from '../../src/platform/db/write-transaction';
import { statementHash } from '../../src/platform/db/prepared';
import { ServerDatabase, testServerDatabase } from '../setup/test-database';
import { entities } from '../../src/modules/entities';

describe('write transactions', () => {
  let database: Database;
  /** The database's data folder, removed when the file is done. */
  let serverDatabase: ServerDatabase;
  const table = `write_probe_${randomBytes(4).toString('hex')}`;
  const insert = () => `INSERT INTO ${table} (label, n) VALUES ($1, $2::int / $3::int) RETURNING label`;
  /** A statement of its own, first sent (and so first prepared) in a batch that fails. */
  const insertLast = () => `INSERT INTO ${table} (label, n) VALUES ($1, $2::int / $3::int)`;
  /** Another, first sent twice in one batch. */
  const insertTwice = () => `INSERT INTO ${table} (n, label) VALUES ($2::int / $3::int, $1)`;
  const labels = async () => (await database.dataSource.query(`SELECT label FROM ${table} ORDER BY label`)).map((row: { label: string }) => row.label);

  beforeAll(async () => {
    // Two connections, used one at a time: the pool hands back the one released last, so a
    // statement that failed on a connection is sent again on that same connection.
    serverDatabase = await testServerDatabase();
    database = await openDatabase({ ...serverDatabase, poolSize: 2, entities });
    await database.dataSource.query(`CREATE TABLE ${table} (label text PRIMARY KEY, n int NOT NULL)`);
  });
  afterAll(async () => {
    await database.dataSource.query(`DROP TABLE ${table}`);
    await database.close();
    await serverDatabase.drop();
  });
  beforeEach(() => database.dataSource.query(`DELETE FROM ${table}`));

  it('writes what its first and last statements write, together', async () => {
    const rows = await inWriteTransaction(database.dataSource, async (transaction) => {
      const [opened] = await transaction.begin({ text: insert(), values: ['a', 1, 1] });
      await transaction.commit(insert(), ['b', 1, 1]);
      return opened;
    });
    expect(rows).toEqual([{ label: 'a' }]);
    expect(await labels()).toEqual(['a', 'b']);
  });

  it('writes nothing when its last statement fails, and that statement runs again afterwards', async () => {
    const failing = inWriteTransaction(database.dataSource, async (transaction) => {
      await transaction.begin({ text: insert(), values: ['a', 1, 1] });
      await transaction.commit(insertLast(), ['b', 1, 0]);
    });
    await expect(failing).rejects.toThrow(QueryFailedError);
    await expect(failing).rejects.toThrow('division by zero');
    expect(await labels()).toEqual([]);

    await inWriteTransaction(database.dataSource, async (transaction) => {
      await transaction.begin({ text: insert(), values: ['c', 1, 1] });
      await transaction.commit(insertLast(), ['d', 1, 1]);
    });
    expect(await labels()).toEqual(['c', 'd']);
  });

  it('rolls back when the work returns or throws without committing', async () => {
    const refused = await inWriteTransaction(database.dataSource, async (transaction) => {
      await transaction.begin({ text: insert(), values: ['a', 1, 1] });
      return 'refused';
    });
    expect(refused).toBe('refused');
    const thrown = inWriteTransaction(database.dataSource, async (transaction) => {
      await transaction.begin({ text: insert(), values: ['b', 1, 1] });
      throw new Error('changed its mind');
    });
    await expect(thrown).rejects.toThrow('changed its mind');
    expect(await labels()).toEqual([]);
  });

  it('writes nothing when a statement that opens it fails, and the connection serves the next one', async () => {
    const failing = inWriteTransaction(database.dataSource, (transaction) =>
      transaction.begin({ text: insertTwice(), values: ['a', 1, 1] }, { text: insertTwice(), values: ['b', 1, 0] }),
    );
    await expect(failing).rejects.toThrow('division by zero');
    expect(await labels()).toEqual([]);

    await inWriteTransaction(database.dataSource, async (transaction) => {
      await transaction.begin({ text: insertTwice(), values: ['c', 1, 1] }, { text: insertTwice(), values: ['d', 1, 1] });
      await transaction.commit(insertTwice(), ['e', 1, 1]);
    });
    expect(await labels()).toEqual(['c', 'd', 'e']);
  });

  it('answers a statement it runs again with its rows, read as they were the first time', async () => {
    const returning = `INSERT INTO ${table} (label, n) VALUES ($1, $2::int / $3::int) RETURNING label, n, n * 2 AS twice`;
    // Twice as many as the pool has connections: each connection runs the statement again.
    for (const label of ['a', 'b', 'c', 'd']) {
      const rows = await inWriteTransaction(database.dataSource, async (transaction) => {
        const [, opened] = await transaction.begin({ text: 'SELECT 1 AS one', values: [] }, { text: returning, values: [label, 6, 2] });
        await transaction.commit(insert(), [`${label}2`, 1, 1]);
        return opened;
      });
      expect(rows).toEqual([{ label, n: 3, twice: 6 }]);
    }
  });

  // Kept statements are described once only on PostgreSQL reached directly.
  (process.env.TEST_DATABASE_URL ? it : it.skip)('reads the rows of a kept statement by their new columns once its table changes', async () => {
    const changing = `write_change_${randomBytes(4).toString('hex')}`;
    await database.dataSource.query(`CREATE TABLE ${changing} (label text PRIMARY KEY, n int NOT NULL)`);
    try {
      const returning = `INSERT INTO ${changing} (label, n) VALUES ($1, $2) RETURNING label, n`;
      const write = (label: string) =>
        inWriteTransaction(database.dataSource, async (transaction) => {
          const [opened] = await transaction.begin({ text: returning, values: [label, 7] });
          await transaction.commit(insert(), [label, 1, 1]);
          return opened;
        });
      for (const label of ['a', 'b', 'c']) expect(await write(label)).toEqual([{ label, n: 7 }]);
      await database.dataSource.query(`ALTER TABLE ${changing} ALTER COLUMN n TYPE text`);
      // A connection that kept the statement is refused once, then parses and describes it again.
      const answers: unknown[] = [];
      for (const label of ['d', 'e', 'f', 'g']) answers.push(await write(label).catch((error: Error) => error.message));
      expect(answers.filter((answer) => typeof answer === 'string').every((message) => /cached plan must not change result type/.test(message as string))).toBe(true);
      expect(answers.at(-1)).toEqual([{ label: 'g', n: '7' }]);
    } finally {
      await database.dataSource.query(`DROP TABLE ${changing}`);
    }
  });

  // Write transactions have connections of their own only on PostgreSQL reached directly.
  (process.env.TEST_DATABASE_URL ? it : it.skip)('plans its statements generically and without sequential scans, and leaves reads as PostgreSQL plans them', async () => {
    const settings = `SELECT current_setting('plan_cache_mode') AS plans, current_setting('enable_seqscan') AS seqscan`;
    for (let write = 0; write < 3; write++) {
      const [planned] = await inWriteTransaction(database.dataSource, async (transaction) => {
        const [rows] = await transaction.begin({ text: settings, values: [] });
        await transaction.commit(insert(), [`w${write}`, 1, 1]);
        return rows;
      });
      expect(planned).toEqual({ plans: 'force_generic_plan', seqscan: 'off' });
    }
    expect(await database.dataSource.query(settings)).toEqual([{ plans: 'auto', seqscan: 'on' }]);
  });

  // Statements are kept only on PostgreSQL reached directly.
  (process.env.TEST_DATABASE_URL ? it : it.skip)(
    'holds the statements it is told to prepare on a connection before that connection is used, planned, and then runs them',
    async () => {
      const lookup = `SELECT label FROM ${table} WHERE label = $1 FOR UPDATE`;
      // A pool of its own: its first connection's first query is a write that uses the statement.
      const fresh = await openDatabase({ ...serverDatabase, poolSize: 2, entities, preparedForWrites: () => [lookup] });
      try {
        // Read on the connection the write used: the write pool hands back the one released last.
        const held = () =>
          inWriteTransaction(
            fresh.dataSource,
            async (transaction) =>
              (await transaction.manager.query('SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = $1', [
                `sc_pipelined_${statementHash(lookup)}`,
              ])) as { generic_plans: string; custom_plans: string }[],
          );
        await inWriteTransaction(fresh.dataSource, async (transaction) => {
          const [found] = await transaction.begin({ text: lookup, values: ['a'] });
          expect(found).toEqual([]);
          await transaction.commit(insert(), ['a', 1, 1]);
        });
        expect(await labels()).toEqual(['a']);
        // Planned once generically as it was prepared, then run on that plan.
        expect(await held()).toEqual([{ generic_plans: '2', custom_plans: '0' }]);
      } finally {
        await fresh.close();
      }
    },
  );
});
