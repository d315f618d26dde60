import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { ZipFile } from 'yazl';
import { GraphQLTestClient } from '../helpers/graphql-client';
import { download, violationsOf } from '../helpers/attachments';
import { BuiltLineage, buildLineage } from '../helpers/lineage';
import { startTestServer, TestServer } from '../helpers/test-server';
import { readZip } from '../../src/modules/lifecycle/portability/bundle-zip';
import { verifyBundle } from '../../src/modules/lifecycle/portability/bundle-verify';
import { eventTokenCount } from '../../src/modules/conversation/transcript';
import { countTokens } from '../../src/shared/tokens';

const run = promisify(execFile);
const LIMITS = { maxEntries: 10_000, maxTotalBytes: 1 << 30 };

async function exportBundle(client: GraphQLTestClient, sessionId: string, scope = 'lineage'): Promise<{ status: number; bytes: Buffer; type: string | null }> {
  const response = await fetch(`${client.baseUrl}/exports/${sessionId}?scope=${scope}`, { headers: { authorization: `Bearer ${client.apiKey}` } });
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()), type: response.headers.get('content-type') };
}

async function importBody(client: GraphQLTestClient, body: Buffer | string, contentType = 'application/zip', query = ''): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${client.baseUrl}/imports${query}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${client.apiKey}`, 'content-type': contentType },
    body,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** A zip of these files, as any tool would write one. */
function zipOf(files: Map<string, Buffer>): Promise<Buffer> {
  const zip = new ZipFile();
  for (const [name, bytes] of files) zip.addBuffer(bytes, name);
  zip.end();
  const pieces: Buffer[] = [];
  return new Promise((resolve, reject) => {
    zip.outputStream.on('data', (piece: Buffer) => pieces.push(piece));
    zip.outputStream.on('end', () => resolve(Buffer.concat(pieces)));
    zip.outputStream.on('error', reject);
  });
}

/**
 * A bundle's content with every id replaced by its order of appearance and hashes left out: what
 * must survive an import into another account unchanged.
 */
async function content(bytes: Buffer) {
  const check = verifyBundle(await readZip(bytes, LIMITS));
  if (!check.ok) throw new Error(`The bundle does not verify: ${check.problems.join('; ')}`);
  const { bundle } = check;
  const names = new Map<string, string>();
  const name = (id: string) => names.get(id) ?? (names.set(id, `#${names.size}`), names.get(id)!);
  const strip = (value: unknown): unknown => {
    if (typeof value === 'string') return value.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, name);
    if (Array.isArray(value)) return value.map(strip);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).filter(([key]) => !['hash', 'lastEventHash', 'exportedAt', 'sha256'].includes(key)).map(([key, item]) => [key, strip(item)]));
    return value;
  };
  const { header, attachmentBytes, sha256: _sha, ...records } = bundle;
  return { rootSessionId: strip(header.rootSessionId), records: strip(records), attachments: [...attachmentBytes.entries()].map(([cid, data]) => [cid, data.length]) };
}

type Content = Awaited<ReturnType<typeof content>>;

/** A bundle's content without the token counts an import counts anew: its events', sessions' and compiled contexts'. */
function withoutCounts({ records, ...rest }: Content) {
  const { events, sessions, manifests, ...others } = records as {
    events: Record<string, unknown>[];
    sessions: Record<string, unknown>[];
    manifests: { context: Record<string, unknown>[] }[];
  };
  return {
    ...rest,
    records: {
      ...others,
      events: events.map(({ tokenCount: _count, tokenTotal: _total, ...event }) => event),
      sessions: sessions.map(({ tokenCount: _count, ...session }) => session),
      manifests: manifests.map(({ tokenCost: _cost, context, ...manifest }: Record<string, unknown>) => ({
        ...manifest,
        context: (context as Record<string, unknown>[]).map(({ tokenCount: _count, ...section }) => section),
      })),
    },
  };
}

describe('export and import', () => {
  let server: TestServer;
  let source: GraphQLTestClient;
  let target: GraphQLTestClient;
  let lineage: BuiltLineage;
  let bundle: Buffer;
  const sql = (text: string, parameters: unknown[] = []) => server.app.database.dataSource.query(text, parameters);
  const accountRows = async (client: GraphQLTestClient) => {
    const { viewer } = await client.data<{ viewer: { id: string } }>('query { viewer { id } }');
    const [row] = await sql(
      `SELECT (SELECT count(*) FROM sessions WHERE account_id = $1)::int AS sessions, (SELECT count(*) FROM events WHERE account_id = $1)::int AS events,
              (SELECT count(*) FROM attachments WHERE account_id = $1)::int AS attachments, (SELECT count(*) FROM imports WHERE account_id = $1)::int AS imports`,
      [viewer.id],
    );
    return row;
  };

  beforeAll(async () => {
    server = await startTestServer();
    source = await server.newAccount('exporter');
    target = await server.newAccount('importer');
    lineage = await buildLineage(server, source, 'gnuharbor');
    const exported = await exportBundle(source, lineage.sessionIds[1]);
    expect({ status: exported.status, type: exported.type }).toEqual({ status: 200, type: 'application/zip' });
    bundle = exported.bytes;
  });
  let bundleFolder: string | undefined;
  afterAll(async () => {
    await server.close();
    if (bundleFolder) rmSync(bundleFolder, { recursive: true, force: true });
  });

  it('exports a lineage as a bundle that verifies offline with npm run verify -- --bundle', async () => {
    bundleFolder = mkdtempSync(path.join(tmpdir(), 'bundle-'));
    const file = path.join(bundleFolder, 'lineage.zip');
    writeFileSync(file, bundle);
    const { stdout } = await run('node', ['-r', '@swc-node/register', 'src/scripts/verify.ts', '--bundle', file], { cwd: path.resolve(__dirname, '..', '..') });
    expect(stdout).toContain('3 sessions');
    expect(stdout).toContain('2 continuation edges, 2 manifest hashes, 1 attachments by checksum');
    const damaged = Buffer.from(bundle);
    writeFileSync(file, await zipOf(new Map([...(await readZip(bundle, LIMITS))].map(([name, bytes]) => [name, name === 'events.jsonl' ? Buffer.from(bytes.toString().replace('gnuharbor', 'gnuharbo_')) : bytes]))));
    await expect(run('node', ['-r', '@swc-node/register', 'src/scripts/verify.ts', '--bundle', file], { cwd: path.resolve(__dirname, '..', '..') })).rejects.toMatchObject({
      code: 1,
      stdout: expect.stringContaining('events.jsonl does not match its checksum'),
    });
    expect(damaged.equals(bundle)).toBe(true);
  });

  it("imports into another account under new ids: texts, order, edges, reasons, manifests, attachment bytes and search", async () => {
    const imported = await importBody(target, bundle);
    expect(imported.status).toBe(201);
    const { rootSessionId, sessionIds } = imported.body as { rootSessionId: string; sessionIds: string[] };
    expect(sessionIds).toHaveLength(3);
    for (const id of sessionIds) expect(lineage.sessionIds).not.toContain(id);
    const { session } = await target.data<{
      session: { lineage: { id: string; title: string; events: { edges: { node: { text: string | null; kind: string; attachments: { cid: string }[] } }[] } }[] };
    }>('query ($s: ID!) { session(id: $s) { lineage { id title events(first: 10) { edges { node { kind text attachments { cid } } } } } } }', { s: sessionIds[2] });
    expect(session.lineage.map((each) => each.title)).toEqual(['Reactor notes gnuharbor', 'Second phase', 'Third phase']);
    expect(session.lineage.map((each) => each.id)).toEqual(sessionIds);
    expect(rootSessionId).toBe(sessionIds[1]);
    const firstTexts = session.lineage[0].events.edges.map((edge) => edge.node.text);
    expect(firstTexts.slice(0, 2)).toEqual(['The gnuharbor reactor sits in Building Zeta; see the diagram.', 'We decided the gnuharbor coolant loop runs at 40 bar.']);
    expect(session.lineage[0].events.edges[0].node.attachments).toEqual([{ cid: lineage.attachmentCid }]);
    const edge = await target.data<{ session: { continuedFrom: { reason: string; manifest: { items: { kind: string; sessionId: string | null; fromEventId: string | null; cid: string | null }[] } } } }>(
      'query ($s: ID!) { session(id: $s) { continuedFrom { reason manifest { items { kind sessionId fromEventId cid } } } } }',
      { s: sessionIds[1] },
    );
    expect(edge.session.continuedFrom.reason).toBe('TOPIC_CHANGE');
    const cited = edge.session.continuedFrom.manifest.items.find((item) => item.kind === 'SESSION_EVENTS' && item.sessionId === sessionIds[0]);
    expect(cited).toBeDefined();
    const { event } = await target.data<{ event: { text: string } | null }>('query ($e: ID!) { event(id: $e) { text } }', { e: cited!.fromEventId });
    expect(event?.text).toContain('Building Zeta');
    const bytes = await download(target, lineage.attachmentCid);
    expect(bytes.status).toBe(200);
    expect(bytes.bytes).toEqual((await download(source, lineage.attachmentCid)).bytes);
    const { searchEvents } = await target.data<{ searchEvents: { edges: { node: { event: { id: string } } }[] } }>('query { searchEvents(query: "gnuharbor coolant", first: 5) { edges { node { event { id } } } } }');
    expect(searchEvents.edges.length).toBeGreaterThan(0);
    expect(await violationsOf(server, sessionIds)).toEqual([]);
    const [provenance] = await sql(`SELECT kind, source->>'rootSessionId' AS original FROM imports WHERE root_session_id = $1`, [rootSessionId]);
    expect(provenance).toEqual({ kind: 'BUNDLE', original: lineage.sessionIds[1] });

    // Token counts are the tokenizer's, of the texts as imported: their ids are new, and an id's count depends on its characters.
    const events: { text: string | null; data: unknown; token_count: number; token_total: number; session_id: string; seq: number }[] = await sql(
      'SELECT session_id, seq, text, data, token_count, token_total FROM events WHERE session_id = ANY($1::uuid[]) ORDER BY session_id, seq',
      [sessionIds],
    );
    const totals = new Map<string, number>();
    for (const row of events) {
      expect(row.token_count).toBe(eventTokenCount(row.text, row.data));
      totals.set(row.session_id, (totals.get(row.session_id) ?? 0) + row.token_count);
      expect(row.token_total).toBe(totals.get(row.session_id));
    }
    const sessions: { id: string; token_count: number }[] = await sql('SELECT id, token_count FROM sessions WHERE id = ANY($1::uuid[])', [sessionIds]);
    expect(new Map(sessions.map((row) => [row.id, row.token_count]))).toEqual(totals);
    // So are the compiled contexts' sections and their cost, which a successor's turns take.
    const manifests: { context: { text: string; tokenCount: number }[]; token_cost: number }[] = await sql(
      'SELECT context, token_cost FROM projection_manifests WHERE successor_id = ANY($1::uuid[])',
      [sessionIds],
    );
    expect(manifests.length).toBeGreaterThan(0);
    for (const { context, token_cost } of manifests) {
      for (const section of context) expect(section.tokenCount).toBe(countTokens(section.text));
      expect(token_cost).toBe(countTokens(context.map((section) => section.text).join('\n\n')));
    }

    const again = await exportBundle(target, rootSessionId);
    expect(withoutCounts(await content(again.bytes))).toEqual(withoutCounts(await content(bundle)));
  });

  it('deduplicates attachments the account holds already by cid', async () => {
    const before = await accountRows(target);
    expect((await importBody(target, bundle)).status).toBe(201);
    const after = await accountRows(target);
    expect(after.attachments).toBe(before.attachments);
    expect(after.sessions).toBe(before.sessions + 3);
  });

  it('refuses a damaged, unknown-version or non-verifying bundle, or one that is no zip, writing nothing', async () => {
    const files = await readZip(bundle, LIMITS);
    const events = files.get('events.jsonl')!.toString();
    const tampered = async (changes: Record<string, string>, recomputeSums = false) => {
      const changed = new Map(files);
      for (const [name, text] of Object.entries(changes)) changed.set(name, Buffer.from(text));
      if (recomputeSums) {
        const { createHash } = await import('node:crypto');
        const sums = [...changed].filter(([name]) => name !== 'checksums.sha256').map(([name, bytes]) => `${createHash('sha256').update(bytes).digest('hex')}  ${name}\n`);
        changed.set('checksums.sha256', Buffer.from(sums.join('')));
      }
      return zipOf(changed);
    };
    const header = JSON.parse(files.get('bundle.json')!.toString());
    const cases: [what: string, body: Buffer, refusal: string][] = [
      ['a changed byte', await tampered({ 'events.jsonl': events.replace('Building Zeta', 'Building Yeta') }), 'DAMAGED'],
      ['an unknown version', await tampered({ 'bundle.json': JSON.stringify({ ...header, version: 99 }) }, true), 'UNKNOWN_VERSION'],
      ['a rewritten event with its checksum', await tampered({ 'events.jsonl': events.replace('Building Zeta', 'Building Yeta') }, true), 'NOT_VERIFYING'],
      ['a truncated zip', bundle.subarray(0, Math.floor(bundle.length / 2)), 'DAMAGED'],
      ['no zip at all', Buffer.from('hello'), 'DAMAGED'],
    ];
    const before = await accountRows(target);
    for (const [what, body, refusal] of cases) {
      const answer = await importBody(target, body);
      const [error] = answer.body.errors as { message: string; extensions: { code: string; refusal: string } }[];
      expect({ what, status: answer.status, code: error.extensions.code, refusal: error.extensions.refusal }).toEqual({ what, status: 400, code: 'INVALID_INPUT', refusal });
      expect(error.message.length).toBeGreaterThan(20);
    }
    expect(await accountRows(target)).toEqual(before);
  });

  it('imports a conversation in the OpenAI chat format as a new session that search finds', async () => {
    const transcript = [
      { role: 'system', content: 'You are a helpful assistant.' },
      { role: 'user', content: 'Where did we put the capybara invoices?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'search', arguments: '{"q":"invoices"}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: 'Folder 7' },
      { role: 'assistant', content: [{ type: 'text', text: 'They are in folder 7.' }] },
    ];
    const answer = await importBody(target, JSON.stringify(transcript), 'application/json');
    expect(answer.status).toBe(201);
    const { rootSessionId } = answer.body as { rootSessionId: string };
    const { session } = await target.data<{ session: { title: string; events: { edges: { node: { kind: string; text: string | null; toolCallId: string | null } }[] } } }>(
      'query ($s: ID!) { session(id: $s) { title events(first: 10) { edges { node { kind text toolCallId } } } } }',
      { s: rootSessionId },
    );
    expect(session.title).toBe('Where did we put the capybara invoices?');
    expect(session.events.edges.map((edge) => edge.node)).toEqual([
      { kind: 'SYSTEM', text: 'You are a helpful assistant.', toolCallId: null },
      { kind: 'USER_MESSAGE', text: 'Where did we put the capybara invoices?', toolCallId: null },
      { kind: 'TOOL_CALL', text: null, toolCallId: 'call_1' },
      { kind: 'TOOL_RESULT', text: 'Folder 7', toolCallId: 'call_1' },
      { kind: 'ASSISTANT_MESSAGE', text: 'They are in folder 7.', toolCallId: null },
    ]);
    const { searchEvents } = await target.data<{ searchEvents: { edges: unknown[] } }>('query { searchEvents(query: "capybara invoices", first: 5) { edges { cursor } } }');
    expect(searchEvents.edges.length).toBeGreaterThan(0);
    expect(await violationsOf(server, [rootSessionId])).toEqual([]);
  });

  it('answers 404 for another account\u2019s session and 400 for a bad scope; a session bundle verifies with its neighbours marked outside', async () => {
    expect((await exportBundle(target, lineage.sessionIds[0])).status).toBe(404);
    expect((await exportBundle(source, lineage.sessionIds[0], 'everything')).status).toBe(400);
    const single = await exportBundle(source, lineage.sessionIds[2], 'session');
    expect(single.status).toBe(200);
    const check = verifyBundle(await readZip(single.bytes, LIMITS));
    expect(check.ok).toBe(true);
    const imported = await importBody(target, single.bytes);
    expect(imported.status).toBe(201);
    expect(await violationsOf(server, (imported.body as { sessionIds: string[] }).sessionIds)).toEqual([]);
  });

  it('answers any body, however broken, with 201 or a 4xx and a reason, never a 500, writing nothing when it refuses', async () => {
    const files = [...(await readZip(bundle, LIMITS))];
    const before = await accountRows(target);
    const zipBodies = fc.tuple(fc.nat(files.length - 1), fc.nat(), fc.string({ maxLength: 8 })).map(async ([file, at, junk]) => {
      const changed = new Map(files);
      const [name, bytes] = files[file];
      const text = bytes.toString('latin1');
      const position = at % Math.max(text.length, 1);
      changed.set(name, Buffer.from(text.slice(0, position) + junk + text.slice(position + junk.length), 'latin1'));
      return { body: await zipOf(changed), type: 'application/zip' };
    });
    const cutZips = fc.nat(bundle.length).map(async (length) => ({ body: bundle.subarray(0, length), type: 'application/zip' }));
    const jsonBodies = fc.jsonValue({ maxDepth: 3 }).map(async (value) => ({ body: Buffer.from(JSON.stringify(value)), type: 'application/json' }));
    const transcripts = fc
      .array(fc.record({ role: fc.constantFrom('user', 'assistant', 'system', 'tool', 'robot', 7), content: fc.oneof(fc.string(), fc.constant(null), fc.array(fc.anything(), { maxLength: 2 })) }, { requiredKeys: [] }), { maxLength: 4 })
      .map(async (messages) => ({ body: Buffer.from(JSON.stringify(messages)), type: 'application/json' }));
    const bytes = fc.uint8Array({ maxLength: 64 }).map(async (raw) => ({ body: Buffer.from(raw), type: 'application/zip' }));
    let created = 0;
    await fc.assert(
      fc.asyncProperty(fc.oneof(zipBodies, cutZips, jsonBodies, transcripts, bytes), async (made) => {
        const { body, type } = await made;
        const answer = await importBody(target, body, type);
        if (answer.status === 201) created += 1;
        else {
          expect([400, 413, 415]).toContain(answer.status);
          const [error] = answer.body.errors as { message: string }[];
          expect(error.message.length).toBeGreaterThan(10);
        }
      }),
      { numRuns: 120 },
    );
    const after = await accountRows(target);
    expect(after.imports - before.imports).toBe(created);
  });
});
