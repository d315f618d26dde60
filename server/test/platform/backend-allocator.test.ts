import { Client, Pool } from 'pg';
import { openDatabase, settleAllocator } from '../../src/platform/db/database';
import { entities } from '../../src/modules/entities';
import { directUrl, testServerDatabase } from '../setup/test-database';

const onPostgres = process.env.TEST_DATABASE_URL ? describe : describe.skip;

onPostgres("a new PostgreSQL connection's backend", () => {
  it('has its allocator settled before the pool hands the connection out', async () => {
    const serverDatabase = await testServerDatabase();
    // Reached directly: a pooler's connections do not name the backends they use.
    const url = directUrl(serverDatabase.databaseUrl!);
    const database = await openDatabase({ ...serverDatabase, databaseUrl: url, poolSize: 4, entities });
    const observer = new Client({ connectionString: url });
    await observer.connect();
    const lastStatement = async (pid: number) =>
      (await observer.query<{ query: string }>('SELECT query FROM pg_stat_activity WHERE pid = $1', [pid])).rows[0].query;
    try {
      const { rows } = await observer.query<{ pid: number }>(
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()",
      );
      const before = new Set(rows.map(({ pid }) => pid));
      const pool = (database.dataSource.driver as unknown as { master: Pool }).master;
      const clients = await Promise.all(Array.from({ length: 4 }, () => pool.connect()));
      const opened = clients.map((client) => (client as unknown as { processID: number }).processID).filter((pid) => !before.has(pid));
      try {
        expect(opened.length).toBeGreaterThan(0);
        for (const pid of opened) expect(await lastStatement(pid)).toBe("SELECT length(repeat(repeat(' ', 1024), 1024))");
      } finally {
        clients.forEach((client) => client.release());
      }
    } finally {
      await observer.end();
      await database.close();
      await serverDatabase.drop();
    }
  });
});

describe('settling a backend allocator', () => {
  it('leaves a connection whose statement failed to its next query', async () => {
    await expect(settleAllocator({ query: () => Promise.reject(new Error('Connection terminated')) })).resolves.toBeUndefined();
  });
});
