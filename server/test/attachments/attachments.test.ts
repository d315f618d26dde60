import { createHash } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ATTACHMENT_TEXT_MAX_CHARS } from '../../src/agent/tools';
import { canonicalJson } from '../../src/shared/canonical-json';
import { CHUNK_BYTES } from '../../src/modules/attachments/storage/database-storage';
import { download, PNG_1X1, randomFile, sha256, upload, uploaded, violationsOf } from '../helpers/attachments';
import { continuation, continueSession, createSession, postMessage } from '../helpers/continuations';
import { GraphQLTestClient } from '../helpers/graphql-client';
import { startTestServer, TestServer } from '../helpers/test-server';

const MAX_BYTES = 1_000_000;

const POST = `mutation ($input: PostMessageInput!) { postMessage(input: $input) {
  __typename
  ... on PostMessageSuccess { event { id seq kind text data toolCallId hash createdAt replayOf { id }
    attachments { cid name mediaType byteSize url createdAt } } }
  ... on OperationError { code message details { path message } } } }`;

interface PostedEvent {
  id: string;
  seq: number;
  kind: string;
  text: string;
  data: unknown;
  toolCallId: string | null;
  hash: string;
  createdAt: string;
  replayOf: { id: string } | null;
  attachments: { cid: string; name: string; mediaType: string; byteSize: number; url: string }[];
}
type Posted = { __typename: string; event?: PostedEvent; code?: string; details?: { path: string[]; message: string }[] };

describe('attachments', () => {
  let server: TestServer;
  let client: GraphQLTestClient;
  let other: GraphQLTestClient;
  const sql = (text: string, parameters: unknown[] = []) => server.app.database.dataSource.query(text, parameters);
  const stored = async () =>
    (await sql('SELECT (SELECT count(*) FROM attachments)::int AS attachments, (SELECT count(*) FROM attachment_chunks)::int AS chunks'))[0];

  beforeAll(async () => {
    server = await startTestServer({ attachmentMaxBytes: MAX_BYTES });
    client = await server.newAccount('attaching');
    other = await server.newAccount('elsewhere');
  });
  afterAll(() => server.close());

  const post = async (input: Record<string, unknown>) => (await client.data<{ postMessage: Posted }>(POST, { input })).postMessage;

  it('stores the same file uploaded twice once, under the sha256 of its bytes, and serves the exact bytes with their media type', async () => {
    const bytes = randomFile(2 * CHUNK_BYTES + 12_345, 'twice');
    const before = await stored();
    const first = await upload(client, 'report.bin', 'application/octet-stream', bytes);
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ cid: sha256(bytes), name: 'report.bin', mediaType: 'application/octet-stream', byteSize: bytes.length, url: `/attachments/${sha256(bytes)}` });
    const afterFirst = await stored();
    expect(afterFirst).toEqual({ attachments: before.attachments + 1, chunks: before.chunks + 3 });

    // Same bytes, another name: the account holds them already.
    const second = await upload(client, 'copy.bin', 'application/octet-stream', bytes);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(await stored()).toEqual(afterFirst);

    const served = await download(client, first.body.cid);
    expect(served.status).toBe(200);
    expect(served.mediaType).toBe('application/octet-stream');
    expect(sha256(served.bytes)).toBe(first.body.cid);
    expect(served.bytes.equals(bytes)).toBe(true);

    const { attachment } = await client.data<{ attachment: unknown }>(
      'query ($cid: String!) { attachment(cid: $cid) { cid name mediaType byteSize url createdAt } }',
      { cid: first.body.cid },
    );
    expect(attachment).toEqual({ ...first.body, createdAt: expect.any(String) });
  });

  it('stores one copy when the same file is uploaded five times at once', async () => {
    const bytes = randomFile(CHUNK_BYTES + 10, 'at once');
    const before = await stored();
    const answers = await Promise.all(Array.from({ length: 5 }, (_, index) => upload(client, `copy ${index}.bin`, 'application/octet-stream', bytes)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(new Set(answers.map((answer) => answer.body.cid))).toEqual(new Set([sha256(bytes)]));
    expect(await stored()).toEqual({ attachments: before.attachments + 1, chunks: before.chunks + 2 });
  });

  it('keeps a file streamed without a declared length, and an empty one', async () => {
    const bytes = randomFile(CHUNK_BYTES + 1, 'streamed');
    const stream = new Blob([bytes]).stream();
    const answer = await upload(client, 'notes.txt', 'text/plain; charset=UTF-8', stream);
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ cid: sha256(bytes), mediaType: 'text/plain; charset=utf-8', byteSize: bytes.length });
    expect((await download(client, answer.body.cid)).bytes.equals(bytes)).toBe(true);

    const empty = await upload(client, 'empty.txt', 'text/plain', new Uint8Array());
    expect(empty.status).toBe(201);
    expect(empty.body).toMatchObject({ cid: sha256(new Uint8Array()), byteSize: 0 });
    expect((await download(client, empty.body.cid)).bytes.length).toBe(0);
  });

  it('refuses a file over ATTACHMENT_MAX_BYTES with 413, declared or streamed, storing nothing', async () => {
    const before = await stored();
    const tooLarge = randomFile(MAX_BYTES + 1, 'too large');
    const declared = await upload(client, 'large.bin', 'application/octet-stream', tooLarge);
    expect(declared.status).toBe(413);
    expect(declared.body.errors![0].message).toMatch(/at most 1000000 bytes/);
    const streamed = await upload(client, 'large.bin', 'application/octet-stream', new Blob([tooLarge]).stream());
    expect(streamed.status).toBe(413);
    expect(await stored()).toEqual(before);
    expect((await download(client, sha256(tooLarge))).status).toBe(404);
    // Exactly the limit is allowed.
    expect((await upload(client, 'limit.bin', 'application/octet-stream', tooLarge.subarray(0, MAX_BYTES))).status).toBe(201);
  });

  it('leaves no bytes behind when storing a chunk or recording the attachment fails', async () => {
    const bytes = randomFile(3 * CHUNK_BYTES, 'faulty');
    const secondChunk = `\\x${bytes.subarray(CHUNK_BYTES, CHUNK_BYTES + 16).toString('hex')}`;
    const faults: [table: string, condition: string][] = [
      ['attachment_chunks', `substring(NEW.bytes from 1 for 16) = '${secondChunk}'::bytea`],
      ['attachments', `NEW.cid = '${sha256(bytes)}'`],
    ];
    for (const [index, [table, condition]] of faults.entries()) {
      const before = await stored();
      await sql(`CREATE FUNCTION inject_upload_fault_${index}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected fault'; END $$`);
      await sql(`CREATE TRIGGER inject_upload_fault_${index} BEFORE INSERT ON ${table} FOR EACH ROW WHEN (${condition}) EXECUTE FUNCTION inject_upload_fault_${index}()`);
      try {
        const answer = await upload(client, 'faulty.bin', 'application/octet-stream', bytes);
        expect({ table, status: answer.status, code: answer.body.errors?.[0].extensions.code }).toEqual({ table, status: 500, code: 'INTERNAL_SERVER_ERROR' });
        expect({ table, stored: await stored() }).toEqual({ table, stored: before });
      } finally {
        await sql(`DROP TRIGGER inject_upload_fault_${index} ON ${table}`);
        await sql(`DROP FUNCTION inject_upload_fault_${index}()`);
      }
    }
    expect((await upload(client, 'faulty.bin', 'application/octet-stream', bytes)).status).toBe(201);
  });

  it('keeps nothing of an upload the client abandons halfway', async () => {
    const before = await stored();
    const controller = new AbortController();
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(stream) {
        // A chunk and a half, then the client gives up.
        if (sent >= CHUNK_BYTES * 1.5) {
          await new Promise((resolve) => setTimeout(resolve, 200));
          controller.abort();
          return;
        }
        sent += 64 * 1024;
        stream.enqueue(randomFile(64 * 1024, `abandoned ${sent}`));
      },
    });
    const abandoned = fetch(`${server.url}/attachments?name=abandoned.bin`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream', authorization: `Bearer ${client.apiKey}` },
      body,
      duplex: 'half',
      signal: controller.signal,
    } as RequestInit);
    await expect(abandoned).rejects.toThrow();
    for (let waited = 0; waited < 5_000 && JSON.stringify(await stored()) !== JSON.stringify(before); waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await stored()).toEqual(before);
  });

  it.each([
    ['a missing media type', 'x.bin', null, 415],
    ['a malformed media type', 'x.bin', 'image', 415],
    ['a media type with a space in it', 'x.bin', 'image/ png', 415],
    ['a missing name', null, 'text/plain', 400],
    ['an empty name', '', 'text/plain', 400],
    ['a name with NUL in it', 'a\u0000b', 'text/plain', 400],
    ['a name over 255 characters', 'n'.repeat(256), 'text/plain', 400],
  ])('refuses an upload with %s, storing nothing', async (_case, name, contentType, status) => {
    const before = await stored();
    const answer = await upload(client, name, contentType, randomFile(100, `refused ${_case}`));
    expect(answer.status).toBe(status);
    expect(answer.body.errors![0].extensions.code).toBe('INVALID_INPUT');
    expect(await stored()).toEqual(before);
  });

  it('refuses uploads and downloads without a valid key', async () => {
    const anonymous = new GraphQLTestClient(server.url, null);
    expect((await upload(anonymous, 'x.txt', 'text/plain', Buffer.from('x'))).status).toBe(401);
    const { cid } = await uploaded(client, 'mine.txt', 'text/plain', Buffer.from('mine'));
    expect((await download(anonymous, cid)).status).toBe(401);
  });

  it("answers another account's cid with 404 and null, and stores that account's own upload of the same bytes as its own", async () => {
    const bytes = randomFile(5_000, 'isolated');
    const mine = await uploaded(client, 'secret.bin', 'application/octet-stream', bytes);
    expect((await download(other, mine.cid)).status).toBe(404);
    expect((await download(other, 'f'.repeat(64))).status).toBe(404);
    expect((await download(other, 'not-a-cid')).status).toBe(404);
    const { attachment } = await other.data<{ attachment: unknown }>('query ($cid: String!) { attachment(cid: $cid) { cid } }', { cid: mine.cid });
    expect(attachment).toBeNull();
    // Answered as if nobody held them: a new upload, not "already stored".
    const theirs = await upload(other, 'theirs.bin', 'application/octet-stream', bytes);
    expect(theirs.status).toBe(201);
    expect(theirs.body.name).toBe('theirs.bin');
    expect((await download(client, mine.cid)).bytes.equals(bytes)).toBe(true);
  });

  it('links uploaded attachments to a message in order, and its hash covers their cids', async () => {
    const image = await uploaded(client, 'pixel.png', 'image/png', PNG_1X1);
    const notes = await uploaded(client, 'notes.md', 'text/markdown', Buffer.from('# Notes\n'));
    const sessionId = await createSession(client, 'with files');
    await postMessage(client, sessionId, 'before the files');
    const posted = await post({ sessionId, text: 'see the files', attachments: [notes.cid, image.cid] });
    const event = posted.event!;
    expect(event.attachments).toEqual([notes, image].map((attachment) => ({ ...attachment, createdAt: expect.any(String) })));
    const [previous] = await sql('SELECT hash FROM events WHERE session_id = $1 AND seq = 1', [sessionId]);
    // The encoding docs/api.md gives: the cids, in order, as a tenth element.
    const expected = createHash('sha256')
      .update(
        canonicalJson([previous.hash, sessionId, event.seq, event.kind, event.text, event.data, event.toolCallId, null, event.createdAt, [notes.cid, image.cid]]),
      )
      .digest('hex');
    expect(event.hash).toBe(expected);

    const read = await client.data<{ event: { attachments: { cid: string }[] } }>('query ($id: ID!) { event(id: $id) { attachments { cid } } }', { id: event.id });
    expect(read.event.attachments.map((attachment) => attachment.cid)).toEqual([notes.cid, image.cid]);
    const plain = await post({ sessionId, text: 'no files' });
    expect(plain.event!.attachments).toEqual([]);

    expect(await violationsOf(server, [sessionId])).toEqual([]);
  });

  it("refuses a message linking an unknown, another account's, malformed or repeated cid, writing nothing", async () => {
    const sessionId = await createSession(client, 'refused files');
    const mine = await uploaded(client, 'ok.txt', 'text/plain', Buffer.from('ok'));
    const theirs = await uploaded(other, 'theirs.txt', 'text/plain', Buffer.from('only theirs'));
    const cases: [string[], string, string[]][] = [
      [[mine.cid, 'a'.repeat(64)], 'NOT_FOUND', ['input', 'attachments', '1']],
      [[theirs.cid], 'NOT_FOUND', ['input', 'attachments', '0']],
      [['A'.repeat(64)], 'INVALID_INPUT', ['input', 'attachments', '0']],
      [[mine.cid, mine.cid], 'INVALID_INPUT', ['input', 'attachments', '1']],
      [Array.from({ length: 21 }, () => mine.cid), 'INVALID_INPUT', ['input', 'attachments']],
    ];
    for (const [attachments, code, path] of cases) {
      const refused = await post({ sessionId, text: 'with a bad file', attachments });
      expect(refused).toMatchObject({ __typename: 'OperationError', code });
      expect(refused.details![0].path).toEqual(path);
    }
    const [{ events }] = await sql('SELECT count(*)::int AS events FROM events WHERE session_id = $1', [sessionId]);
    expect(events).toBe(0);
  });

  it('a branch from a continued session takes the attachments of the message that starts it', async () => {
    const sessionId = await createSession(client, 'to branch');
    await postMessage(client, sessionId, 'first');
    expect((await continueSession(client, continuation(sessionId))).__typename).toBe('ContinueSessionSuccess');
    const file = await uploaded(client, 'branch.txt', 'text/plain', Buffer.from('branch file'));
    const branched = await client.data<{ postMessage: { event: { attachments: { cid: string }[]; session: { kind: string } } } }>(
      `mutation ($input: PostMessageInput!) { postMessage(input: $input) {
        ... on PostMessageSuccess { event { session { kind } attachments { cid } } } } }`,
      { input: { sessionId, text: 'in a new direction', branch: true, attachments: [file.cid] } },
    );
    expect(branched.postMessage.event).toEqual({ session: { kind: 'CONTINUATION' }, attachments: [{ cid: file.cid }] });
  });

  it('read_attachment, the recall tool, reads a text attachment as text and describes any other, for its account only', async () => {
    const mcp = new Client({ name: 'attachments-test', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${client.apiKey}` } } }));
    const read = async (cid: string) => {
      const result = (await mcp.callTool({ name: 'read_attachment', arguments: { cid } })) as CallToolResult;
      return { error: result.isError ?? false, body: JSON.parse((result.content[0] as { text: string }).text) };
    };
    try {
      const text = await uploaded(client, 'readme.md', 'text/markdown; charset=utf-8', Buffer.from('# Read me\nexactly this'));
      expect(await read(text.cid)).toEqual({
        error: false,
        body: { cid: text.cid, name: 'readme.md', mediaType: 'text/markdown; charset=utf-8', byteSize: 22, text: '# Read me\nexactly this', complete: true },
      });
      const long = await uploaded(client, 'long.txt', 'text/plain', Buffer.from('x'.repeat(20_000)));
      expect((await read(long.cid)).body).toMatchObject({ complete: false, text: 'x'.repeat(ATTACHMENT_TEXT_MAX_CHARS) });
      const image = await uploaded(client, 'pixel.png', 'image/png', PNG_1X1);
      const described = await read(image.cid);
      expect(described.body.description).toBe(`pixel.png (image/png, ${PNG_1X1.length} bytes, cid ${image.cid}): not text, so its bytes are not shown here.`);
      expect(described.body).not.toHaveProperty('text');
      const theirs = await uploaded(other, 'theirs.txt', 'text/plain', Buffer.from('not yours to read'));
      expect(await read(theirs.cid)).toMatchObject({ error: true, body: { code: 'NOT_FOUND' } });
    } finally {
      await mcp.close();
    }
  });
});
