import type { ChatCompletionCreateParams } from 'openai/resources/chat/completions';
import { PNG_1X1, randomFile, uploaded } from '../helpers/attachments';
import { continuation, continueSession, createSession } from '../helpers/continuations';
import { FakeOpenAI, agentOn, startFakeOpenAI } from '../helpers/fake-openai';
import { GraphQLTestClient } from '../helpers/graphql-client';
import { settledRuns } from '../helpers/runs';
import { startTestServer, TestServer } from '../helpers/test-server';

const POST = `mutation ($input: PostMessageInput!) { postMessage(input: $input) {
  ... on PostMessageSuccess { event { id } } ... on OperationError { code message } } }`;

function lastUser(body: ChatCompletionCreateParams) {
  return body.messages.filter((message) => message.role === 'user').at(-1)!;
}

describe('attachments given to an OpenAI-compatible model', () => {
  let fake: FakeOpenAI;
  let server: TestServer;
  let client: GraphQLTestClient;

  beforeAll(async () => {
    fake = await startFakeOpenAI({ apiKey: 'sk-test' });
    server = await startTestServer({
      agent: agentOn(fake),
    });
    client = await server.newAccount('seeing');
  });
  afterAll(async () => {
    await server.close();
    await fake.close();
  });

  it('sends an image as an image part, a text file as text and any other file by name, and the successor sees the same image', async () => {
    fake.reply(() => ({ text: 'I see a red pixel.' }));
    const image = await uploaded(client, 'pixel.png', 'image/png', PNG_1X1);
    const notes = await uploaded(client, 'notes.txt', 'text/plain; charset=utf-8', Buffer.from('Ship on Friday.'));
    const archive = await uploaded(client, 'logs.tar', 'application/x-tar', randomFile(3_000, 'agent archive'));
    const sessionId = await createSession(client, 'Looking');
    await client.data(POST, { input: { sessionId, text: 'What is in these?', attachments: [image.cid, notes.cid, archive.cid] } });
    await settledRuns(client, sessionId);

    const dataUrl = `data:image/png;base64,${PNG_1X1.toString('base64')}`;
    expect(lastUser(fake.requests.at(-1)!).content).toEqual([
      { type: 'text', text: 'What is in these?' },
      { type: 'image_url', image_url: { url: dataUrl } },
      { type: 'text', text: '<attachment name="notes.txt" type="text/plain; charset=utf-8">\nShip on Friday.\n</attachment>' },
      { type: 'text', text: `[attached: logs.tar (application/x-tar, 3000 bytes, cid ${archive.cid}); read_attachment describes it]` },
    ]);

    const before = fake.requests.length;
    const continued = await continueSession(client, continuation(sessionId, { actor: 'USER' }));
    await settledRuns(client, continued.successor!.id);
    const successorRequest = fake.requests.slice(before).at(-1)!;
    const parts = lastUser(successorRequest).content as { type: string; image_url?: { url: string } }[];
    expect(parts.filter((part) => part.type === 'image_url')).toEqual([{ type: 'image_url', image_url: { url: dataUrl } }]);
  });
});
