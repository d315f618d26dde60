import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startServer, until, type RunningServer } from './server.js';

const example = fileURLToPath(new URL('../examples/terminal-chat.mjs', import.meta.url));
let server: RunningServer;

before(async () => {
  server = await startServer();
});

after(() => server.close());

it('chats in a terminal and carries on in the successor after /continue', async () => {
  const chat = spawn(process.execPath, [example], {
    env: { PATH: process.env.PATH, SC_URL: server.url, SC_API_KEY: server.apiKey },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  let waitFor = until(() => output.includes('you: Where do comets come from?'));
  chat.stdout.on('data', (chunk) => {
    output += chunk;
    waitFor.check();
  });
  chat.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => chat.once('exit', resolve));

  chat.stdin.write('Where do comets come from?\n');
  await waitFor.reached;
  waitFor = until(() => output.includes('== now in "Comet orbits"'));
  chat.stdin.write('/continue Comet orbits\n');
  await waitFor.reached;
  chat.stdin.end('How long is an orbit?\n');
  assert.equal(await exited, 0, output);

  const lines = output.trim().split('\n');
  assert.match(lines[0], /^session [0-9a-f-]{36}$/);
  assert.deepEqual(lines.slice(1), [
    'you: Where do comets come from?',
    '--: Continued in "Comet orbits"',
    lines.find((line) => line.startsWith('== now in "Comet orbits"')),
    '--: Continued from "Terminal chat"',
    'you: Where do comets come from?',
    'you: How long is an orbit?',
  ]);
});
