import { resolveMemorySource, resolveResourceSource } from '../../src/modules/resources/resources.service';
import { GraphQLTestClient } from '../helpers/graphql-client';
import { startTestServer, TestServer } from '../helpers/test-server';

const VERSION_FIELDS = 'url version cid createdAt blocks { id text }';
const PUT = `mutation ($input: PutResourceInput!) { putResource(input: $input) { ${VERSION_FIELDS} } }`;
const RESOURCE = `query ($url: String!) {
  resource(url: $url) { url revoked latest { ${VERSION_FIELDS} } versions { ${VERSION_FIELDS} } } }`;
const VERSION = `query ($url: String!, $version: String!) {
  resourceVersion(url: $url, version: $version) { ${VERSION_FIELDS} } }`;
const REVOKE = 'mutation ($url: String!) { revokeResource(url: $url) { url revoked latest { version } versions { version } } }';
const WRITE = 'mutation ($input: WriteMemoryInput!) { writeMemory(input: $input) { path cid content createdAt } }';
const MEMORY = 'query ($path: String!, $cid: String) { memory(path: $path, cid: $cid) { path cid content createdAt } }';

interface Block {
  id: string;
  text: string;
}
interface Version {
  url: string;
  version: string;
  cid: string;
  createdAt: string;
  blocks: Block[];
}
interface Resource {
  url: string;
  revoked: boolean;
  latest: Version | null;
  versions: Version[];
}
interface MemoryEntry {
  path: string;
  cid: string;
  content: string;
  createdAt: string;
}

describe('resources and memory', () => {
  let server: TestServer;
  let alice: GraphQLTestClient;
  let mallory: GraphQLTestClient;
  let aliceId: string;
  const sql = (text: string, parameters: unknown[] = []) => server.app.database.dataSource.query(text, parameters);

  beforeAll(async () => {
    server = await startTestServer({ poolSize: 20 });
    alice = await server.newAccount('alice');
    mallory = await server.newAccount('mallory');
    aliceId = await accountId(alice);
  });
  afterAll(() => server.close());

  const put = async (client: GraphQLTestClient, url: string, blocks: Block[]) =>
    (await client.data<{ putResource: Version }>(PUT, { input: { url, blocks } })).putResource;
  const resource = async (client: GraphQLTestClient, url: string) =>
    (await client.data<{ resource: Resource | null }>(RESOURCE, { url })).resource;
  const version = async (client: GraphQLTestClient, url: string, v: string) =>
    (await client.data<{ resourceVersion: Version | null }>(VERSION, { url, version: v })).resourceVersion;
  const write = async (client: GraphQLTestClient, path: string, content: string) =>
    (await client.data<{ writeMemory: MemoryEntry }>(WRITE, { input: { path, content } })).writeMemory;
  const memory = async (client: GraphQLTestClient, path: string, cid?: string) =>
    (await client.data<{ memory: MemoryEntry | null }>(MEMORY, { path, cid })).memory;
  const accountId = async (client: GraphQLTestClient) =>
    (await client.data<{ viewer: { id: string } }>('query { viewer { id } }')).viewer.id;

  describe('resources', () => {
    const url = 'seed://docs/continuation-spec';
    const draft = [
      { id: 'summary', text: 'Continue in a fresh session instead of compacting.' },
      { id: 'goals', text: 'Keep every source reachable.' },
    ];
    const revised = [
      { id: 'summary', text: 'Continue in a fresh successor; never rewrite the predecessor.' },
      { id: 'goals', text: 'Keep every source reachable.' },
      { id: 'recall', text: 'Omitted sources stay one recall away.' },
    ];

    it('stores each put as a new immutable version, and every version reads back exactly', async () => {
      const v1 = await put(alice, url, draft);
      expect(v1).toMatchObject({ url, version: '1', blocks: draft });
      expect(v1.cid).toMatch(/^[0-9a-f]{64}$/);
      const v2 = await put(alice, url, revised);
      expect(v2).toMatchObject({ url, version: '2', blocks: revised });
      expect(v2.cid).not.toBe(v1.cid);

      expect(await version(alice, url, '1')).toEqual(v1);
      expect(await version(alice, url, '2')).toEqual(v2);
      expect(await version(alice, url, '3')).toBeNull();
      expect(await version(alice, url, '01')).toBeNull();
    });

    it('lists the versions oldest first with the latest, and block ids as given', async () => {
      const read = await resource(alice, url);
      expect(read).toMatchObject({ url, revoked: false, latest: { version: '2' } });
      expect(read!.versions.map((v) => v.version)).toEqual(['1', '2']);
      expect(read!.latest).toEqual(read!.versions[1]);
      expect(read!.latest!.blocks.map((block) => block.id)).toEqual(['summary', 'goals', 'recall']);
      expect(await resource(alice, 'seed://nowhere')).toBeNull();
    });

    it('returns the latest version unchanged when a put repeats its blocks, so retries are idempotent', async () => {
      const again = await put(alice, url, revised);
      expect(again.version).toBe('2');
      expect(again).toEqual(await version(alice, url, '2'));
      // Going back to earlier content is a change: it becomes a new version with the earlier cid.
      const back = await put(alice, url, draft);
      expect(back.version).toBe('3');
      expect(back.cid).toBe((await version(alice, url, '1'))!.cid);
    });

    it('numbers concurrent puts 1..n without gaps or repeats', async () => {
      const racing = 'seed://docs/racing';
      const versions = await Promise.all(
        Array.from({ length: 12 }, (_, i) => put(alice, racing, [{ id: 'b', text: `writer ${i}` }])),
      );
      expect(versions.map((v) => Number(v.version)).sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
      expect((await resource(alice, racing))!.versions).toHaveLength(12);
    });

    it('keeps a url or path at its limit in characters of any script (stored under a hash of the name)', async () => {
      const longUrl = `seed://${'資'.repeat(1_993)}`;
      expect(longUrl).toHaveLength(2_000);
      expect((await put(alice, longUrl, [{ id: 'b', text: 'wide' }])).url).toBe(longUrl);
      expect((await resource(alice, longUrl))!.latest!.blocks).toEqual([{ id: 'b', text: 'wide' }]);
      const longPath = '記'.repeat(1_000);
      expect((await write(alice, longPath, 'wide')).path).toBe(longPath);
      expect((await memory(alice, longPath))!.content).toBe('wide');
    });

    it('revokes a resource: its versions stay stored but no longer read, and it takes no new versions', async () => {
      const doomed = 'seed://docs/revoked';
      await put(alice, doomed, [{ id: 'secret', text: 'withdrawn content' }]);
      const { revokeResource } = await alice.data<{ revokeResource: unknown }>(REVOKE, { url: doomed });
      expect(revokeResource).toEqual({ url: doomed, revoked: true, latest: null, versions: [] });
      expect(await resource(alice, doomed)).toEqual({ url: doomed, revoked: true, latest: null, versions: [] });
      expect(await version(alice, doomed, '1')).toBeNull();

      const again = await alice.data<{ revokeResource: { revoked: boolean } }>(REVOKE, { url: doomed });
      expect(again.revokeResource.revoked).toBe(true);
      const refused = await alice.request(PUT, { input: { url: doomed, blocks: [{ id: 'b', text: 'back?' }] } });
      expect(refused.errors?.[0].extensions).toMatchObject({ code: 'INVALID_INPUT', details: [{ path: ['input', 'url'] }] });
      const [{ count }] = await sql(
        `SELECT count(*)::int AS count FROM resource_versions
         WHERE account_id = $1 AND url = $2 AND blocks @> '[{"id": "secret"}]'`,
        [aliceId, doomed],
      );
      expect(count).toBe(1);
    });

    it('answers NOT_FOUND when revoking a url the account does not have', async () => {
      const response = await alice.request(REVOKE, { url: 'seed://never-stored' });
      expect(response.errors?.[0].extensions).toMatchObject({ code: 'NOT_FOUND', details: [{ path: ['url'] }] });
    });

    it('refuses bad input with INVALID_INPUT and input paths, and stores nothing', async () => {
      const bad = 'seed://docs/bad';
      const cases: [Record<string, unknown>, string[][]][] = [
        [{ url: '', blocks: [{ id: 'a', text: 'x' }] }, [['input', 'url']]],
        [{ url: 'x'.repeat(2_001), blocks: [{ id: 'a', text: 'x' }] }, [['input', 'url']]],
        [{ url: bad, blocks: [] }, [['input', 'blocks']]],
        [
          {
            url: bad,
            blocks: [
              { id: 'a', text: 'x' },
              { id: 'a', text: 'y'.repeat(100_001) },
            ],
          },
          [
            ['input', 'blocks', '1', 'id'],
            ['input', 'blocks', '1', 'text'],
          ],
        ],
        [{ url: bad, blocks: [{ id: 'i'.repeat(201), text: 'x' }] }, [['input', 'blocks', '0', 'id']]],
      ];
      for (const [input, paths] of cases) {
        const response = await alice.request(PUT, { input });
        expect(response.errors?.[0].extensions?.code).toBe('INVALID_INPUT');
        expect((response.errors?.[0].extensions?.details as { path: string[] }[]).map((detail) => detail.path)).toEqual(paths);
      }
      const tooManyBlocks = Array.from({ length: 1_001 }, (_, i) => ({ id: `b${i}`, text: '' }));
      const many = await alice.request(PUT, { input: { url: bad, blocks: tooManyBlocks } });
      expect(many.errors?.[0].extensions).toMatchObject({ code: 'INVALID_INPUT', details: [{ path: ['input', 'blocks'] }] });
      expect(await resource(alice, bad)).toBeNull();
      const [{ count }] = await sql("SELECT count(*)::int AS count FROM resources WHERE account_id = $1 AND url IN ($2, '')", [
        aliceId,
        bad,
      ]);
      expect(count).toBe(0);
    });
  });

  describe('memory', () => {
    it('addresses content by its cid: the same content at a path is one entry, new content a new one', async () => {
      const first = await write(alice, 'notes/decisions', 'Use continuation, not compaction.');
      expect(first).toMatchObject({ path: 'notes/decisions', content: 'Use continuation, not compaction.' });
      expect(first.cid).toMatch(/^[0-9a-f]{64}$/);
      expect(await write(alice, 'notes/decisions', 'Use continuation, not compaction.')).toEqual(first);

      const second = await write(alice, 'notes/decisions', 'Manifests are immutable.');
      expect(second.cid).not.toBe(first.cid);
      const elsewhere = await write(alice, 'notes/other', 'Use continuation, not compaction.');
      expect(elsewhere.cid).toBe(first.cid);

      expect(await memory(alice, 'notes/decisions')).toEqual(second);
      expect(await memory(alice, 'notes/decisions', first.cid)).toEqual(first);
      expect(await memory(alice, 'notes/decisions', second.cid)).toEqual(second);
      expect(await memory(alice, 'notes/decisions', 'f'.repeat(64))).toBeNull();
      expect(await memory(alice, 'notes/none')).toBeNull();
      const [{ count }] = await sql(
        "SELECT count(*)::int AS count FROM memory_entries WHERE account_id = $1 AND path = 'notes/decisions'",
        [aliceId],
      );
      expect(count).toBe(2);
    });

    it('makes rewritten earlier content the current entry again, without storing it twice', async () => {
      const a = await write(alice, 'notes/toggle', 'A');
      await write(alice, 'notes/toggle', 'B');
      expect(await write(alice, 'notes/toggle', 'A')).toEqual(a);
      expect(await memory(alice, 'notes/toggle')).toEqual(a);
    });

    it('refuses an empty or overlong path or content with INVALID_INPUT and input paths, and stores nothing', async () => {
      const cases: [Record<string, unknown>, string[][]][] = [
        [{ path: '', content: 'x' }, [['input', 'path']]],
        [{ path: 'p'.repeat(1_001), content: 'x' }, [['input', 'path']]],
        [{ path: 'notes/bad', content: '' }, [['input', 'content']]],
        [{ path: 'notes/bad', content: 'c'.repeat(100_001) }, [['input', 'content']]],
      ];
      for (const [input, paths] of cases) {
        const response = await alice.request(WRITE, { input });
        expect(response.errors?.[0].extensions?.code).toBe('INVALID_INPUT');
        expect((response.errors?.[0].extensions?.details as { path: string[] }[]).map((detail) => detail.path)).toEqual(paths);
      }
      expect(await memory(alice, 'notes/bad')).toBeNull();
      const [{ count }] = await sql(
        "SELECT count(*)::int AS count FROM memory_entries WHERE account_id = $1 AND path IN ('notes/bad', '')",
        [aliceId],
      );
      expect(count).toBe(0);
    });
  });

  it("shows another account's resources and memory exactly as if they did not exist", async () => {
    const url = 'seed://private/plan';
    const v1 = await put(alice, url, [{ id: 'p', text: 'private plan' }]);
    const entry = await write(alice, 'private/notes', 'private note');

    const data = await mallory.data<Record<string, unknown>>(
      `query ($url: String!, $path: String!, $cid: String!) {
        resource(url: $url) { url } resourceVersion(url: $url, version: "1") { cid }
        latest: memory(path: $path) { cid } exact: memory(path: $path, cid: $cid) { cid } }`,
      { url, path: 'private/notes', cid: entry.cid },
    );
    expect(data).toEqual({ resource: null, resourceVersion: null, latest: null, exact: null });
    const revoke = await mallory.request(REVOKE, { url });
    expect(revoke.errors?.[0].extensions?.code).toBe('NOT_FOUND');

    // The same url in another account is another resource, with its own history.
    const own = await put(mallory, url, [{ id: 'p', text: 'another plan' }]);
    expect(own.version).toBe('1');
    expect(await version(alice, url, '1')).toEqual(v1);
    expect((await resource(alice, url))!.revoked).toBe(false);
  });

  it.each([
    ['UPDATE', 'resource_versions', "UPDATE resource_versions SET cid = 'forged' WHERE account_id = $1"],
    ['DELETE', 'resource_versions', 'DELETE FROM resource_versions WHERE account_id = $1'],
    ['TRUNCATE', 'resource_versions', 'TRUNCATE resource_versions'],
    ['UPDATE', 'memory_entries', "UPDATE memory_entries SET content = 'forged' WHERE account_id = $1"],
    ['DELETE', 'memory_entries', 'DELETE FROM memory_entries WHERE account_id = $1'],
    ['TRUNCATE', 'memory_entries', 'TRUNCATE memory_entries CASCADE'],
  ])('the database refuses %s of %s rows', async (operation, table, statement) => {
    await put(alice, 'seed://immutable', [{ id: 'b', text: 'kept' }]);
    await write(alice, 'immutable', 'kept');
    const rows = () => sql(`SELECT * FROM ${table} WHERE account_id = $1 ORDER BY id`, [aliceId]);
    const before = await rows();
    await expect(sql(statement, operation === 'TRUNCATE' ? [] : [aliceId])).rejects.toThrow(/immutable/);
    expect(await rows()).toEqual(before);
  });

  describe('resolving cited sources for a continuation', () => {
    const url = 'seed://docs/cited';
    const v1 = [
      { id: 'a', text: 'First draft of a.' },
      { id: 'b', text: 'First draft of b.' },
    ];
    const v2 = [
      { id: 'a', text: 'Second draft of a.' },
      { id: 'c', text: 'New block c.' },
    ];
    const resolve = (ref: Parameters<typeof resolveResourceSource>[2], account = aliceId) =>
      server.app.database.dataSource.transaction((manager) => resolveResourceSource(manager, account, ref));
    const resolveMemory = (ref: Parameters<typeof resolveMemorySource>[2], account = aliceId) =>
      server.app.database.dataSource.transaction((manager) => resolveMemorySource(manager, account, ref));

    beforeAll(async () => {
      await put(alice, url, v1);
      await put(alice, url, v2);
    });

    it('resolves a pinned version exactly, even after newer ones', async () => {
      const pinned = await resolve({ url, version: '1' });
      expect(pinned).toEqual({
        status: 'AVAILABLE',
        url,
        version: '1',
        cid: (await version(alice, url, '1'))!.cid,
        blockId: null,
        text: '[block a] First draft of a.\n[block b] First draft of b.',
        tokenCount: expect.any(Number),
      });
      expect(pinned.status === 'AVAILABLE' && pinned.tokenCount).toBeGreaterThan(0);
    });

    it('resolves the latest version when none is named, saying which one it was', async () => {
      expect(await resolve({ url })).toMatchObject({
        status: 'AVAILABLE',
        version: '2',
        text: '[block a] Second draft of a.\n[block c] New block c.',
      });
    });

    it('resolves one block to its own text and tokens', async () => {
      const block = await resolve({ url, version: '1', blockId: 'b' });
      expect(block).toMatchObject({ status: 'AVAILABLE', version: '1', blockId: 'b', text: 'First draft of b.' });
      const whole = await resolve({ url, version: '1' });
      expect(block.status === 'AVAILABLE' && whole.status === 'AVAILABLE' && block.tokenCount < whole.tokenCount).toBe(true);
      expect(await resolve({ url, blockId: 'c' })).toMatchObject({ status: 'AVAILABLE', version: '2', text: 'New block c.' });
    });

    it('answers NOT_FOUND for an unknown url, version or block, or another account', async () => {
      expect(await resolve({ url: 'seed://docs/unknown' })).toEqual({ status: 'NOT_FOUND' });
      expect(await resolve({ url, version: '3' })).toEqual({ status: 'NOT_FOUND' });
      expect(await resolve({ url, version: 'latest' })).toEqual({ status: 'NOT_FOUND' });
      expect(await resolve({ url, version: '2', blockId: 'b' })).toEqual({ status: 'NOT_FOUND' });
      expect(await resolve({ url }, await accountId(mallory))).toEqual({ status: 'NOT_FOUND' });
    });

    it('answers UNAVAILABLE for a revoked resource, without its content', async () => {
      const revoked = 'seed://docs/cited-then-revoked';
      await put(alice, revoked, [{ id: 'a', text: 'withdrawn' }]);
      await alice.data(REVOKE, { url: revoked });
      expect(await resolve({ url: revoked, version: '1', blockId: 'a' })).toEqual({
        status: 'UNAVAILABLE',
        url: revoked,
        version: '1',
        blockId: 'a',
        reason: 'revoked',
      });
      expect(await resolve({ url: revoked })).toEqual({
        status: 'UNAVAILABLE',
        url: revoked,
        version: null,
        blockId: null,
        reason: 'revoked',
      });
      expect(await resolve({ url: revoked, version: '2' })).toEqual({ status: 'NOT_FOUND' });
    });

    it('resolves memory by exact cid or the current entry, and NOT_FOUND otherwise', async () => {
      const first = await write(alice, 'cited/memory', 'first');
      const second = await write(alice, 'cited/memory', 'second');
      expect(await resolveMemory({ path: 'cited/memory', cid: first.cid })).toEqual({
        status: 'AVAILABLE',
        path: 'cited/memory',
        cid: first.cid,
        text: 'first',
        tokenCount: 1,
      });
      const current = await resolveMemory({ path: 'cited/memory' });
      expect(current).toMatchObject({ status: 'AVAILABLE', cid: second.cid, text: 'second' });
      expect(await resolveMemory({ path: 'cited/none' })).toEqual({ status: 'NOT_FOUND' });
      expect(await resolveMemory({ path: 'cited/memory', cid: 'f'.repeat(64) })).toEqual({ status: 'NOT_FOUND' });
      expect(await resolveMemory({ path: 'cited/memory' }, await accountId(mallory))).toEqual({ status: 'NOT_FOUND' });
    });
  });
});
