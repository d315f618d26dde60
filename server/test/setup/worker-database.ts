/**
 * Runs before each test file: the file uses its worker's database of this run (created by the
 * global setup), as TEST_DATABASE_URL and TEST_DATABASE_ADMIN_URL.
 */
const worker = process.env.JEST_WORKER_ID ?? '1';
const url = process.env[`TEST_DATABASE_URL_${worker}`];
if (url) {
  process.env.TEST_DATABASE_URL = url;
  process.env.TEST_DATABASE_ADMIN_URL = process.env[`TEST_DATABASE_ADMIN_URL_${worker}`];
} else if (process.env.TEST_DATABASE_URL_1) {
  // More workers than databases (a --maxWorkers above TEST_WORKERS): two files would share one.
  throw new Error(`No test database for jest worker ${worker}: run at most TEST_WORKERS (test/setup/test-database.ts) workers on PostgreSQL.`);
}

export {};
