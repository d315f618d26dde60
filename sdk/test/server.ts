import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const serverDir = fileURLToPath(new URL('../../server', import.meta.url));

/**
 * The test servers' embedded buffer pool in megabytes: PostgreSQL clears the whole pool as it
 * starts, and at the default 128 MB that is most of a start; a test's data fits in a few.
 */
export const EMBEDDED_BUFFER_MB = '16';

/** A migrated embedded data folder to copy, set by test/with-migrated-template.ts. */
export const TEMPLATE_DIR_VARIABLE = 'SC_TEST_TEMPLATE_DIR';

export interface RunningServer {
  url: string;
  apiKey: string;
  close(): Promise<void>;
}

/** The real server, from source, on an embedded database of its own (a copy of the run's template when there is one) and a free port. */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'sc-test-'));
  const templateDir = process.env[TEMPLATE_DIR_VARIABLE];
  if (templateDir) await cp(templateDir, dataDir, { recursive: true });
  const apiKey = `sck_test_${randomBytes(16).toString('hex')}`;
  const child = spawn(process.execPath, ['-r', '@swc-node/register', 'src/index.ts'], {
    cwd: serverDir,
    env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, EMBEDDED_BUFFER_MB, BOOTSTRAP_API_KEY: apiKey, MODEL_PROVIDER: 'none', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk;
      const match = /Session Continuation API: (http:\/\/[^\s"]+)\/graphql/.exec(output);
      if (match) resolve(match[1]);
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', () => reject(new Error(`The server exited before listening:\n${output}`)));
  });
  return {
    url,
    apiKey,
    async close() {
      child.kill('SIGTERM');
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Resolves once `predicate` holds, checked each time `check` is called. */
export function until(predicate: () => boolean, timeoutMs = 20_000): { check(): void; reached: Promise<void> } {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const reached = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  const timer = setTimeout(() => reject(new Error('Timed out waiting for the condition')), timeoutMs);
  const check = () => {
    if (!predicate()) return;
    clearTimeout(timer);
    resolve();
  };
  return { check, reached };
}
