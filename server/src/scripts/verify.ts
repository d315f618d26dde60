import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { ConfigError, configFromEnv } from '../config';
import { startEmbeddedPostgres } from '../platform/db/embedded-postgres';
import type { Violation } from '../modules/integrity/invariants';
import { DEFAULT_LEASE_GRACE_MS, verifyDatabase } from '../modules/integrity/integrity.service';
import { verifyBundle } from '../modules/lifecycle/portability/bundle-verify';
import { DamagedZip, readZip } from '../modules/lifecycle/portability/bundle-zip';

/**
 * `--bundle <file.zip>`: checks an exported bundle offline, needing no server or database (its
 * checksums, hash chains, manifest hashes and that every manifest item resolves inside it or is
 * marked outside it). Exits 0 when it verifies, 1 when it does not.
 */
async function verifyBundleFile(file: string): Promise<number> {
  const bytes = readFileSync(file);
  let files;
  try {
    files = await readZip(bytes, { maxEntries: 1_000_000, maxTotalBytes: Number.MAX_SAFE_INTEGER });
  } catch (error) {
    if (!(error instanceof DamagedZip)) throw error;
    console.log(`DAMAGED: ${error.message}`);
    return 1;
  }
  const check = verifyBundle(files);
  if (!check.ok) {
    for (const problem of check.problems) console.log(`${check.refusal}: ${problem}`);
    console.log(`The bundle does not verify (${check.refusal}).`);
    return 1;
  }
  const { sessions, events, erasedEvents, edges, manifests, erasedManifests, outsideItems, attachments } = check.report;
  console.log(`Verified ${file}: ${sessions} sessions, ${events} events (hash chains and seq), ${edges} continuation edges, ${manifests} manifest hashes, ${attachments} attachments by checksum.`);
  console.log(`${erasedEvents} erased events and ${erasedManifests} erased manifests (content removed by an erasure, hashes as recorded); ${outsideItems} manifest items marked outside the bundle.`);
  return 0;
}

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
  const embedded = config.databaseUrl ? null : await startEmbeddedPostgres(pgDataDir, 2, config.embeddedBufferMb);
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
    console.log(`${report.erased.events} erased events and ${report.erased.manifests} erased manifests: content removed by an erasure, hashes as recorded (not violations).`);
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

const bundleArgument = process.argv.indexOf('--bundle');
const run = bundleArgument >= 0 ? async () => {
  const file = process.argv[bundleArgument + 1];
  if (!file) throw new ConfigError('--bundle takes the path of a bundle (a .zip file).');
  return verifyBundleFile(file);
} : main;

run().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`Cannot verify: ${error instanceof ConfigError ? error.message : error}`);
    process.exit(2);
  },
);
