import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { download, randomFile, sha256, upload } from '../helpers/attachments';
import { GraphQLTestClient } from '../helpers/graphql-client';
import { startTestServer, TestServer } from '../helpers/test-server';

const BUCKET = 'attachments-test';
const MAX_BYTES = 7 * 1024 * 1024;
const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/** The same storage promises against an S3-compatible server (s3rver speaks S3's wire format, on a local folder). */
describe('attachments in an S3-compatible bucket', () => {
  let s3rver: S3rver;
  let s3: S3Client;
  let folder: string;
  let server: TestServer;
  let client: GraphQLTestClient;
  const objects = async () => (await s3.send(new ListObjectsV2Command({ Bucket: BUCKET }))).Contents ?? [];
  const chunksInDatabase = async () => (await server.app.database.dataSource.query('SELECT count(*)::int AS chunks FROM attachment_chunks'))[0].chunks;

  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'sc-s3-'));
    s3rver = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: folder });
    const { port } = await s3rver.run();
    const endpoint = `http://127.0.0.1:${port}`;
    s3 = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials });
    await s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
    server = await startTestServer({
      attachmentMaxBytes: MAX_BYTES,
      s3: { endpoint, bucket: BUCKET, region: 'us-east-1', credentials, forcePathStyle: true, keyPrefix: 'blobs/' },
    });
    client = await server.newAccount('s3');
  });
  afterAll(async () => {
    await server.close();
    s3.destroy();
    await s3rver.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('stores a file once, as one object, and serves the exact bytes with their media type', async () => {
    // Larger than one part of a multipart upload (5 MiB).
    const bytes = randomFile(6 * 1024 * 1024 + 7, 's3 twice');
    // On PostgreSQL the run's test files share one database.
    const chunksBefore = await chunksInDatabase();
    const first = await upload(client, 'video.webm', 'video/webm', bytes);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ cid: sha256(bytes), byteSize: bytes.length });
    const second = await upload(client, 'again.webm', 'video/webm', new Blob([bytes]).stream());
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    const stored = await objects();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ Key: expect.stringMatching(/^blobs\//), Size: bytes.length });
    expect(await chunksInDatabase()).toBe(chunksBefore);

    const served = await download(client, first.body.cid);
    expect(served).toMatchObject({ status: 200, mediaType: 'video/webm' });
    expect(served.bytes.equals(bytes)).toBe(true);
  });

  it('refuses a file over the limit with 413, leaving no object behind', async () => {
    const before = await objects();
    const tooLarge = randomFile(MAX_BYTES + 1, 's3 too large');
    expect((await upload(client, 'large.bin', 'application/octet-stream', new Blob([tooLarge]).stream())).status).toBe(413);
    expect((await upload(client, 'large.bin', 'application/octet-stream', tooLarge)).status).toBe(413);
    expect(await objects()).toEqual(before);
    expect((await download(client, sha256(tooLarge))).status).toBe(404);
  });

  it("answers another account's cid with 404", async () => {
    const { body } = await upload(client, 'mine.txt', 'text/plain', Buffer.from('only mine, in the bucket'));
    const other = await server.newAccount('s3 other');
    expect((await download(other, body.cid)).status).toBe(404);
    expect((await download(client, body.cid)).bytes.toString()).toBe('only mine, in the bucket');
  });

  it('removes the object of an attachment whose only session is erased, and keeps one another session still links', async () => {
    const post = (sessionId: string, text: string, cids: string[]) =>
      client.data<{ postMessage: { __typename: string } }>(
        'mutation ($s: ID!, $t: String!, $a: [String!]) { postMessage(input: { sessionId: $s, text: $t, attachments: $a }) { __typename } }',
        { s: sessionId, t: text, a: cids },
      );
    const newSession = async (title: string) =>
      (await client.data<{ createSession: { id: string } }>('mutation ($t: String!) { createSession(input: { title: $t }) { id } }', { t: title })).createSession.id;
    const only = (await upload(client, 'erased.txt', 'text/plain', Buffer.from('bytes only the erased session links'))).body.cid;
    const shared = (await upload(client, 'kept.txt', 'text/plain', Buffer.from('bytes two sessions link'))).body.cid;
    const erased = await newSession('erased in the bucket');
    const kept = await newSession('kept in the bucket');
    expect((await post(erased, 'two files', [only, shared])).postMessage.__typename).toBe('PostMessageSuccess');
    expect((await post(kept, 'one file', [shared])).postMessage.__typename).toBe('PostMessageSuccess');
    const keys = async () => (await objects()).map((object) => object.Key);
    const before = await keys();

    const { eraseSession } = await client.data<{ eraseSession: { __typename: string; attachmentCount: number } }>(
      'mutation ($s: ID!) { eraseSession(input: { sessionId: $s, scope: SESSION, reason: "asked to forget" }) { __typename ... on ErasureReceipt { attachmentCount } } }',
      { s: erased },
    );
    // The receipt counts the attachments that went, bytes and all; the shared one stays.
    expect(eraseSession).toEqual({ __typename: 'ErasureReceipt', attachmentCount: 1 });
    expect((await download(client, only)).status).toBe(404);
    expect((await download(client, shared)).bytes.toString()).toBe('bytes two sessions link');
    const after = await keys();
    expect(before.length - after.length).toBe(1);
    expect(after.every((key) => before.includes(key))).toBe(true);
  });
});
