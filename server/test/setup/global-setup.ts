import { createTestDatabase, TestDatabase } from './test-database';

declare global {
  var testDatabase: TestDatabase | undefined;
}

/** One migrated database (or embedded template) for the whole run; test files find it in the environment. */
export default async function globalSetup(): Promise<void> {
  const database = await createTestDatabase();
  globalThis.testDatabase = database;
  if (database.url) process.env.TEST_DATABASE_URL = database.url;
  if (database.adminUrl) process.env.TEST_DATABASE_ADMIN_URL = database.adminUrl;
  if (database.templateDir) process.env.TEST_TEMPLATE_DIR = database.templateDir;
}
