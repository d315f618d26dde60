import { existsSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { ConfigError, configFromEnv } from '../config';
import { startEmbeddedPostgres } from '../platform/db/embedded-postgres';
import type { Violation } from '../modules/integrity/invariants';
import { DEFAULT_LEASE_GRACE_MS, verifyDatabase } from '../modules/integrity/integrity.service';

/**
 * Checks the database the server would use (DATABASE_URL, or the embedded database in DATA_DIR)
 * against every invariant the API promises. Prints what it checked and each violation with its
 * ids; exits 0 when there is none, 1 when there are, 2 when it cannot check.
 */
async function main(): Promise<number> {
  const config = configFromEnv();
  const graceMs = process.env.VERIFY_LEASE_GRACE_MS ? Number(process.env.VERIFY_LEASE_GRACE_MS) : DEFAULT_LEASE_GRACE_MS;
  if (!Number.isInteger(graceMs) || graceMs < 0) throw new ConfigError('VERIFY_LEASE_GRACE_MS must be an integer of milliseconds.');
  const pgDataDir = path.join(config.dataDir, 'pgdata');
  // Opening a folder that does not exist would create an empty database instead of checking one.
  if (!config.databaseUrl && !existsSync(pgDataDir)) throw new ConfigError(`There is no embedded database in ${pgDataDir}.`);
  const embedded = config.databaseUrl ? null : await startEmbeddedPostgres(pgDataDir, 2);
  const client = new Client({ connectionString: config.databaseUrl ?? embedded!.url, application_name: 'session-continuation-verify' });
  try {
    await client.connect();
    console.log(`Verifying ${config.databaseUrl ? 'the PostgreSQL database' : `the embedded database in ${config.dataDir}`}.`);
    const report = await verifyDatabase((text, parameters) => client.query(text, parameters).then((result) => result.rows), {
      leaseGraceMs: graceMs,
      onViolation: (violation) => console.log(describe(violation)),
    });
    const { sessions, events, edges, manifests, runs } = report.checked;
    console.log(
      `Checked ${sessions} sessions with ${events} events (hash chains and seq), ${edges} continuation edges, ` +
        `${manifests} manifest hashes and ${runs} run leases (grace ${graceMs} ms).`,
    );
    console.log(report.violations === 0 ? 'No violations.' : `${report.violations} violations.`);
    return report.violations === 0 ? 0 : 1;
  } finally {
    await client.end().catch(() => undefined);
    await embedded?.stop();
  }
}

function describe({ code, message, ids }: Violation): string {
  const where = Object.entries(ids)
    .map(([name, id]) => `${name}=${id}`)
    .join(' ');
  return `VIOLATION ${code} ${where}: ${message}`;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`Cannot verify: ${error instanceof ConfigError ? error.message : error}`);
    process.exit(2);
  },
);
