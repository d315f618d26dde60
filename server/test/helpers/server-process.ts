import { ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { TEST_EMBEDDED_BUFFER_MB, testPoolMode } from '../setup/test-database';

const serverDir = path.resolve(__dirname, '..', '..');

/** Behind a transaction pooler (DATABASE_POOLER_URL), servers deliver across processes through Redis. */
function poolerEnvironment(): Record<string, string> {
  const mode = testPoolMode();
  return mode ? { DATABASE_POOL_MODE: mode, REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379' } : {};
}

/** Runs the server entry point as `npm start` would, from source. */
export function startServerProcess(env: Record<string, string>): ChildProcess & { output: () => string } {
  const child = spawn(process.execPath, ['-r', '@swc-node/register', 'src/index.ts'], {
    cwd: serverDir,
    env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: '0', EMBEDDED_BUFFER_MB: String(TEST_EMBEDDED_BUFFER_MB), ...poolerEnvironment(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  return Object.assign(child, { output: () => output });
}

export function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

export async function waitForOutput(child: ReturnType<typeof startServerProcess>, pattern: RegExp, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = pattern.exec(child.output());
    if (match) return match;
    if (child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`Server did not print ${pattern}; it printed:\n${child.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

