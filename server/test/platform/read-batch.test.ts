import { QueryFailedError } from 'typeorm';
import { Database, openDatabase } from '../../src/platform/db/database';
import { Read, answered, readInOneRoundTrip } from '../../src/platform/db/read-batch';
import { inWriteTransaction } from '../../src/platform/db/write-transaction';
import { ServerDatabase, testServerDatabase } from '../setup/test-database';
import { entities } from '../../src/modules/entities';

/** The backend that ran the read, and a value of the read's own. */
const backendRead = (value: number): Read<{ backend: number; value: number }> => ({
  text: 'SELECT pg_backend_pid() AS backend, $1::int AS value',
  values: [value],
  result: ([row]) => ({ backend: row.backend as number, value: row.value as number }),
});

const quotient = (dividend: number, divisor: number): Read<number> => ({
  text: 'SELECT $1::int / $2::int AS quotient',
  values: [dividend, divisor],
  result: ([row]) => row.quotient as number,
});

describe('reads in one round trip', () => {
  let database: Database;
  let serverDatabase: ServerDatabase;

  beforeAll(async () => {
    serverDatabase = await testServerDatabase();
    database = await openDatabase({ ...serverDatabase, poolSize: 4, entities });
  });
  afterAll(async () => {
    await database.close();
    await serverDatabase.drop();
  });

  it('answers each read with its own rows, in order, all from one connection', async () => {
    const before = database.queryCount();
    const [first, none, second, third] = await readInOneRoundTrip(database.dataSource.manager, [backendRead(1), answered('known'), backendRead(2), backendRead(3)]);
    expect([first.value, none, second.value, third.value]).toEqual([1, 'known', 2, 3]);
    expect(new Set([first.backend, second.backend, third.backend]).size).toBe(1);
    // What the caller answered itself is not sent.
    expect(database.queryCount() - before).toBe(3);
  });

  it('sends nothing when every read is answered already', async () => {
    const before = database.queryCount();
    await expect(readInOneRoundTrip(database.dataSource.manager, [answered(null), answered([])])).resolves.toEqual([null, []]);
    expect(database.queryCount()).toBe(before);
  });

  it('fails as a whole when one read fails, and its connection serves the reads after it', async () => {
    // More batches than the pool has connections: a connection that answered an error reads again.
    for (let attempt = 0; attempt < 6; attempt++) {
      const failing = readInOneRoundTrip(database.dataSource.manager, [quotient(6, 2), quotient(1, 0), quotient(8, 2)]);
      await expect(failing).rejects.toThrow(QueryFailedError);
      await expect(failing).rejects.toThrow('division by zero');
      await expect(readInOneRoundTrip(database.dataSource.manager, [quotient(6, 2), quotient(8, 2)])).resolves.toEqual([3, 4]);
    }
  });

  it("reads on a transaction's own connection, seeing what the transaction wrote", async () => {
    const seen = await inWriteTransaction(database.dataSource, async (transaction) => {
      await transaction.begin({ text: 'CREATE TEMPORARY TABLE read_probe (n int) ON COMMIT DROP', values: [] });
      await transaction.manager.query('INSERT INTO read_probe VALUES (5)');
      const count: Read<number> = { text: 'SELECT count(*)::int AS count FROM read_probe', values: [], result: ([row]) => row.count as number };
      return readInOneRoundTrip(transaction.manager, [count, quotient(9, 3)]);
    });
    expect(seen).toEqual([1, 3]);
  });
});
