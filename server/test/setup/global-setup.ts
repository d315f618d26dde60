import { scratchFolder } from './scratch-folder';
import { createTestDatabase, TestDatabase } from './test-database';

declare global {
  var testDatabase: TestDatabase | undefined;
}

/**
 * One migrated database per test worker (or one embedded template) for the whole run; each test
 * file finds its worker's in the environment (test/setup/worker-database.ts).
 */
export default async function globalSetup(): Promise<void> {
  // Set before anything asks for a temporary folder; test workers and the servers they spawn inherit it.
  const scratch = scratchFolder();
  if (scratch) process.env.TMPDIR = scratch;
  const database = await createTestDatabase();
  globalThis.testDatabase = database;
  database.workerUrls?.forEach(({ url, adminUrl }, index) => {
    process.env[`TEST_DATABASE_URL_${index + 1}`] = url;
    process.env[`TEST_DATABASE_ADMIN_URL_${index + 1}`] = adminUrl;
  });
  if (database.templateDir) process.env.TEST_TEMPLATE_DIR = database.templateDir;
  if (database.templateDatabase) process.env.TEST_TEMPLATE_DATABASE = database.templateDatabase;
}
