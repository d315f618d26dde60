import { spawn, type SpawnOptions } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EMBEDDED_BUFFER_MB, serverDir, TEMPLATE_DIR_VARIABLE } from './server.js';

/**
 * Runs the test files named on the command line with Node's test runner, one at a time, after
 * migrating one embedded data folder that every server they start (test/server.ts) copies: a copy
 * starts in half the time of an empty folder, which the server would first migrate.
 */

const MIGRATE = [
  "const { openDatabase } = require('./src/platform/db/database');",
  "const { entities } = require('./src/modules/entities');",
  'openDatabase({ dataDir: process.argv[1], embeddedBufferMb: Number(process.argv[2]), poolSize: 2, entities }).then((database) => database.close());',
].join(' ');

async function exitCodeOf(args: string[], options: SpawnOptions): Promise<number> {
  const child = spawn(process.execPath, args, { stdio: 'inherit', ...options });
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  return code ?? (signal ? 1 : 0);
}

const templateDir = await mkdtemp(path.join(tmpdir(), 'sc-test-template-'));
try {
  if ((await exitCodeOf(['-r', '@swc-node/register', '-e', MIGRATE, templateDir, EMBEDDED_BUFFER_MB], { cwd: serverDir })) !== 0) {
    throw new Error('Migrating the template data folder failed.');
  }
  process.exitCode = await exitCodeOf(['--import', '@swc-node/register/esm-register', '--test', '--test-concurrency=1', ...process.argv.slice(2)], {
    env: { ...process.env, [TEMPLATE_DIR_VARIABLE]: templateDir },
  });
} finally {
  await rm(templateDir, { recursive: true, force: true });
}
