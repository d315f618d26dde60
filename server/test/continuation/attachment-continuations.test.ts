import { PNG_1X1, randomFile, uploaded, UploadedAttachment, violationsOf } from '../helpers/attachments';
import { continuation, continueSession, createSession } from '../helpers/continuations';
import { GraphQLTestClient } from '../helpers/graphql-client';
import { startTestServer, TestServer } from '../helpers/test-server';

const POST = `mutation ($input: PostMessageInput!) { postMessage(input: $input) {
  ... on PostMessageSuccess { event { id } } ... on OperationError { code message } } }`;
const SUCCESSOR = `query ($id: ID!) { session(id: $id) { id
  events(first: 5) { edges { node { seq kind text replayOf { id } attachments { cid name mediaType byteSize } } } }
  continuedFrom { manifest { items { kind status origin relevance cid tokenCount hash } context { sections { kind text } } } } } }`;

interface ManifestItem {
  kind: string;
  status: string;
  origin: string;
  relevance: string;
  cid: string | null;
  tokenCount: number;
  hash: string | null;
}
interface Successor {
  id: string;
  events: { edges: { node: { seq: number; kind: string; text: string; replayOf: { id: string } | null; attachments: { cid: string }[] } }[] };
  continuedFrom: { manifest: { items: ManifestItem[]; context: { sections: { kind: string; text: string }[] } } };
}

describe('attachments across a continuation', () => {
  let server: TestServer;
  let client: GraphQLTestClient;
  const sql = (text: string, parameters: unknown[] = []) => server.app.database.dataSource.query(text, parameters);
  const stored = async () =>
    (await sql('SELECT (SELECT count(*) FROM attachments)::int AS attachments, (SELECT count(*) FROM attachment_chunks)::int AS chunks'))[0];

  beforeAll(async () => {
    server = await startTestServer();
    client = await server.newAccount('carrying');
  });
  afterAll(() => server.close());

  async function sessionWithMessage(text: string, attachments: UploadedAttachment[] = []) {
    const sessionId = await createSession(client, 'with a file');
    const posted = await client.data<{ postMessage: { event: { id: string } } }>(POST, {
      input: { sessionId, text, attachments: attachments.map((attachment) => attachment.cid) },
    });
    return { sessionId, eventId: posted.postMessage.event.id };
  }

  async function successor(sessionId: string, overrides: Record<string, unknown> = {}): Promise<Successor> {
    const result = await continueSession(client, continuation(sessionId, overrides));
    if (!result.successor) throw new Error(`continueSession refused: ${result.code} ${result.message}`);
    return (await client.data<{ session: Successor }>(SUCCESSOR, { id: result.successor.id })).session;
  }

  const excerpt = (session: Successor) => session.continuedFrom.manifest.context.sections.find((section) => section.kind === 'EXCERPT')?.text ?? '';
  const context = (session: Successor) => session.continuedFrom.manifest.context.sections.map((section) => section.text).join('\n\n');

  it("replays the initiating message with the same image by the same cid, names it in the manifest, and stores no copy", async () => {
    const image = await uploaded(client, 'diagram.png', 'image/png', PNG_1X1);
    const { sessionId, eventId } = await sessionWithMessage('what does this diagram show?', [image]);
    const before = await stored();
    const next = await successor(sessionId);

    const replayed = next.events.edges[1].node;
    expect(replayed).toMatchObject({ kind: 'USER_MESSAGE', text: 'what does this diagram show?', replayOf: { id: eventId } });
    expect(replayed.attachments).toEqual([{ cid: image.cid, name: 'diagram.png', mediaType: 'image/png', byteSize: PNG_1X1.length }]);
    const items = next.continuedFrom.manifest.items;
    expect(items[1]).toEqual({
      kind: 'ATTACHMENT',
      status: 'INCLUDED',
      origin: 'RUNTIME',
      relevance: 'attached to the initiating user message',
      cid: image.cid,
      tokenCount: 0,
      hash: image.cid,
    });
    const initiating = next.continuedFrom.manifest.context.sections.find((section) => section.kind === 'INITIATING_MESSAGE')!.text;
    expect(initiating).toContain(`<attachment cid="${image.cid}" name="diagram.png" type="image/png" bytes="${PNG_1X1.length}" />`);
    expect(context(next)).not.toContain(PNG_1X1.toString('base64'));
    // Linked again by cid: not a byte more in storage.
    expect(await stored()).toEqual(before);
    const [{ links }] = await sql(
      'SELECT count(*)::int AS links FROM events WHERE $1 = ANY(attachment_cids) AND account_id = (SELECT account_id FROM events WHERE id = $2)',
      [image.cid, eventId],
    );
    expect(links).toBe(2);

    expect(await violationsOf(server, [sessionId, next.id])).toEqual([]);
  });

  it("carries a cited text attachment's content as an excerpt when it fits, and only its reference otherwise", async () => {
    const notes = await uploaded(client, 'notes.txt', 'text/plain', Buffer.from('The launch moved to Thursday.'));
    const { sessionId } = await sessionWithMessage('plan the launch');
    const next = await successor(sessionId, { sources: [{ kind: 'ATTACHMENT', relevance: 'the launch notes', cid: notes.cid }] });
    const item = next.continuedFrom.manifest.items.at(-1)!;
    expect(item).toMatchObject({ kind: 'ATTACHMENT', status: 'INCLUDED', origin: 'CITED', cid: notes.cid, hash: notes.cid });
    expect(item.tokenCount).toBeGreaterThan(0);
    expect(excerpt(next)).toBe(
      `<attachment cid="${notes.cid}" name="notes.txt" type="text/plain" bytes="29" relevance="the launch notes">\nThe launch moved to Thursday.\n</attachment>`,
    );

    const long = await uploaded(client, 'long.txt', 'text/plain', Buffer.from('word '.repeat(3_000)));
    const { sessionId: another } = await sessionWithMessage('plan the launch again');
    const referenced = await successor(another, { tokenBudget: 1_500, sources: [{ kind: 'ATTACHMENT', relevance: 'long notes', cid: long.cid }] });
    expect(referenced.continuedFrom.manifest.items.at(-1)).toMatchObject({ kind: 'ATTACHMENT', status: 'INCLUDED', cid: long.cid });
    expect(excerpt(referenced)).toBe(`<attachment cid="${long.cid}" name="long.txt" type="text/plain" bytes="15000" relevance="long notes" />`);
  });

  it("never pastes a binary attachment's bytes: it is a reference, or a recall handle when even that does not fit", async () => {
    const binary = randomFile(20_000, 'binary source');
    const archive = await uploaded(client, 'logs.tar', 'application/x-tar', binary);
    const { sessionId } = await sessionWithMessage('look at the logs');
    const next = await successor(sessionId, { sources: [{ kind: 'ATTACHMENT', relevance: 'the logs', cid: archive.cid }] });
    expect(excerpt(next)).toBe(`<attachment cid="${archive.cid}" name="logs.tar" type="application/x-tar" bytes="20000" relevance="the logs" />`);
    expect(context(next)).not.toContain(binary.toString('base64').slice(0, 40));

    const { sessionId: tight } = await sessionWithMessage('look at the logs, briefly');
    const PREVIEW = `query ($input: ContinueSessionInput!) { previewProjection(input: $input) {
      ... on ProjectionPreview { items { kind status cid } context { sections { kind text } } } ... on OperationError { message } } }`;
    const sources = [{ kind: 'ATTACHMENT', relevance: 'the logs', cid: archive.cid }];
    // The smallest budget holds the never-dropped sections and one line of handles, nothing more.
    const tooSmall = await client.data<{ previewProjection: { message: string } }>(PREVIEW, { input: continuation(tight, { tokenBudget: 64, sources }) });
    const minimum = Number(/below the (\d+) tokens/.exec(tooSmall.previewProjection.message)![1]);
    type Preview = { items: ManifestItem[]; context: { sections: { kind: string; text: string }[] } };
    const { previewProjection } = await client.data<{ previewProjection: Preview }>(PREVIEW, { input: continuation(tight, { tokenBudget: minimum, sources }) });
    expect(previewProjection.items.at(-1)).toMatchObject({ kind: 'ATTACHMENT', status: 'OMITTED', cid: archive.cid });
    expect(previewProjection.context.sections.find((section) => section.kind === 'OMITTED_HANDLES')!.text).toMatch(/read_manifest/);
  });

  it("refuses a cited attachment the account does not hold, writing nothing", async () => {
    const other = await server.newAccount('not carrying');
    const theirs = await uploaded(other, 'theirs.txt', 'text/plain', Buffer.from('their file'));
    const { sessionId } = await sessionWithMessage('cite a file');
    for (const cid of [theirs.cid, 'c'.repeat(64), 'not a cid']) {
      const refused = await continueSession(client, continuation(sessionId, { sources: [{ kind: 'ATTACHMENT', relevance: 'a file', cid }] }));
      expect(refused).toMatchObject({ __typename: 'OperationError', code: 'SOURCE_NOT_FOUND' });
      expect(refused.details![0].path).toEqual(['input', 'sources', '0', 'cid']);
    }
    const misshapen = await continueSession(client, continuation(sessionId, { sources: [{ kind: 'ATTACHMENT', relevance: 'a file', url: 'https://x.example' }] }));
    expect(misshapen).toMatchObject({ __typename: 'OperationError', code: 'INVALID_INPUT' });
    const [{ edges }] = await sql('SELECT count(*)::int AS edges FROM continuation_edges WHERE predecessor_id = $1', [sessionId]);
    expect(edges).toBe(0);
  });
});
