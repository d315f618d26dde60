import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { RunningServer, startServer } from '../../sdk/test/server.js';

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../..', import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

interface Packed {
  name: string;
  filename: string;
  files: { path: string }[];
}

/** `npm pack` of a package of this repository into `destination`, as a release would make it. */
async function pack(directory: string, destination: string): Promise<Packed> {
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', destination], { cwd: path.join(repo, directory) });
  // npm prints the prepack build's output before the JSON.
  return (JSON.parse(stdout.slice(stdout.indexOf('[\n'))) as Packed[])[0];
}

/** Every file below `directory`, relative to it. */
async function filesBelow(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.relative(directory, path.join(entry.parentPath, entry.name)));
}

/** A program of a stranger's project using both packages as their READMEs show. */
const CONSUMER = `
import { spawn } from 'node:child_process';
import WebSocket from 'ws';
import { createClient, TransportError } from '@session-continuation/sdk';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const { SC_URL: url, SC_API_KEY: apiKey } = process.env;
const client = createClient({ url: url + '/graphql', apiKey, webSocketImpl: WebSocket });
const session = await client.createSession({ title: 'From the tarball' });
const heard = new Promise((resolve, reject) => {
  const stop = client.followConversation(session.id, { onEvent: (event) => (stop(), resolve(event.text)), onError: reject });
});
const posted = await client.postMessage({ sessionId: session.id, text: 'Hello from a stranger' });
const followed = await heard;

const mcp = new Client({ name: 'stranger', version: '1.0.0' });
await mcp.connect(new StdioClientTransport({ command: 'npx', args: ['session-continuation-mcp'], env: { PATH: process.env.PATH, SC_URL: url, SC_API_KEY: apiKey } }));
const { tools } = await mcp.listTools();
const created = await mcp.callTool({ name: 'create_session', arguments: { title: 'From the MCP tarball' } });
await mcp.close();

const sessions = await client.listSessions({ first: 10 });
const refused = await createClient({ url, apiKey: 'sck_wrong' }).listSessions().catch((error) => error instanceof TransportError && error.code);
await client.dispose();
console.log(JSON.stringify({
  posted: posted.__typename,
  followed,
  tools: tools.map((tool) => tool.name),
  created: JSON.parse(created.content[0].text).title,
  titles: sessions.edges.map((edge) => edge.node.title),
  refused,
}));
`;

/** The same use, type-checked as a strict TypeScript project would. */
const TYPED_CONSUMER = `
import { createClient, type Session, type SessionConnection, TransportError } from '@session-continuation/sdk';
import { startStdioProxy, type StdioProxyOptions } from '@session-continuation/mcp';

export async function titles(url: string, apiKey: string): Promise<string[]> {
  const client = createClient({ url, apiKey });
  const page: SessionConnection = await client.listSessions({ first: 10, rootsOnly: true });
  const session: Session = await client.createSession({ title: 'Typed' });
  const posted = await client.postMessage({ sessionId: session.id, text: 'hello' });
  if (posted.__typename === 'OperationError') throw new TransportError(posted.message);
  // @ts-expect-error a title is a string
  await client.createSession({ title: 1 });
  // @ts-expect-error no such status
  await client.listSessions({ status: 'GONE' });
  return page.edges.map((edge) => edge.node.title);
}

export const options: StdioProxyOptions = { url: 'http://127.0.0.1:4000', apiKey: 'sck_x' };
export const start: typeof startStdioProxy = startStdioProxy;
`;

describe('the packages as npm pack makes them', { timeout: 240_000 }, () => {
  let server: RunningServer;
  let work: string;
  const packed: Packed[] = [];
  const app = () => path.join(work, 'app');

  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'sc-packages-'));
    server = await startServer();
    packed.push(await pack('sdk', work), await pack('mcp', work));
    await run('mkdir', [app()]);
    await writeFile(path.join(app(), 'package.json'), JSON.stringify({ name: 'stranger', private: true, type: 'module' }));
    await run(
      'npm',
      ['install', '--no-audit', '--no-fund', '--prefer-offline', ...packed.map((tarball) => path.join(work, tarball.filename)), 'ws@8', '@types/node@20'],
      { cwd: app() },
    );
  });
  after(async () => {
    await server?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('ship a README, a LICENSE, the repository and every file their package.json names, and no source maps', async () => {
    for (const { name, files } of packed) {
      const shipped = files.map((file) => file.path);
      const installed = path.join(app(), 'node_modules', name);
      const manifest = JSON.parse(await readFile(path.join(installed, 'package.json'), 'utf8'));
      assert.ok(shipped.includes('README.md') && shipped.includes('LICENSE'), `${name}: ${shipped.join(', ')}`);
      assert.match(await readFile(path.join(installed, 'LICENSE'), 'utf8'), /^MIT License/);
      assert.match(manifest.repository?.url ?? '', /^git\+https:\/\/.+\.git$/);
      assert.equal(manifest.repository.directory, name.split('/')[1]);
      const named = [manifest.main, manifest.types, ...Object.values(manifest.bin ?? {}), ...Object.values(manifest.exports).flatMap((entry) => (typeof entry === 'string' ? [entry] : Object.values(entry as object)))];
      for (const file of named.filter(Boolean)) assert.ok(shipped.includes(path.normalize(file as string)), `${name} names ${file}, which it does not ship`);
      assert.deepEqual(shipped.filter((file) => file.endsWith('.map')), [], `${name} ships source maps`);
      for (const file of (await filesBelow(installed)).filter((file) => file.endsWith('.js'))) {
        assert.doesNotMatch(await readFile(path.join(installed, file), 'utf8'), /sourceMappingURL/, `${name}/${file}`);
      }
    }
  });

  it('install into a project of their own and work against the real server, as their READMEs show', async () => {
    await writeFile(path.join(app(), 'use.mjs'), CONSUMER);
    const { stdout } = await run(process.execPath, ['use.mjs'], { cwd: app(), env: { PATH: process.env.PATH, SC_URL: server.url, SC_API_KEY: server.apiKey } });
    const used = JSON.parse(stdout);
    assert.deepEqual(used, {
      posted: 'PostMessageSuccess',
      followed: 'Hello from a stranger',
      tools: used.tools,
      created: 'From the MCP tarball',
      titles: used.titles,
      refused: 'UNAUTHENTICATED',
    });
    assert.ok(used.tools.includes('continue_session'));
    assert.deepEqual(used.titles.slice(0, 2), ['From the MCP tarball', 'From the tarball']);
  });

  it('type-check in a strict TypeScript project, without skipping their declarations', async () => {
    await writeFile(path.join(app(), 'typed.ts'), TYPED_CONSUMER);
    const tsconfig = { compilerOptions: { module: 'nodenext', target: 'es2022', strict: true, noEmit: true, skipLibCheck: false, types: ['node'] }, files: ['typed.ts'] };
    await writeFile(path.join(app(), 'tsconfig.json'), JSON.stringify(tsconfig));
    const checked = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: app() }).catch((error: { stdout: string }) => error);
    assert.equal((checked as { stdout: string }).stdout, '');
  });
});
