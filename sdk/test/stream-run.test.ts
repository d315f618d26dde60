import assert from 'node:assert/strict';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import { createClient, type Client, TransportError } from '../src/index.js';
import { startServer, type RunningServer } from './server.js';

/** A model behind OpenAI's streaming chat-completions format that answers `first`, waits for `release()`, then answers `rest`. */
async function startHeldModel(first: string, rest: string) {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const send = (response: ServerResponse, delta: Record<string, unknown>, finishReason: string | null = null) =>
    response.write(`data: ${JSON.stringify({ id: 'chatcmpl-held', object: 'chat.completion.chunk', created: 0, model: 'held', choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`);
  const model = createServer((request, response) => {
    request.resume();
    request.on('end', async () => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      send(response, { role: 'assistant', content: first });
      await released;
      send(response, { content: rest });
      send(response, {}, 'stop');
      response.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`,
    release,
    close: () => new Promise<void>((resolve) => model.close(() => resolve())),
  };
}

describe('streamRun', () => {
  const first = 'The kitchen goes on the north side, ';
  const rest = 'beside the garden door.';
  let model: Awaited<ReturnType<typeof startHeldModel>>;
  let server: RunningServer;
  let client: Client;

  before(async () => {
    model = await startHeldModel(first, rest);
    server = await startServer({ MODEL_PROVIDER: 'openai', OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: 'unused', MODEL: 'held' });
    client = createClient({ url: server.url, apiKey: server.apiKey, webSocketImpl: WebSocket });
  });
  after(async () => {
    model.release();
    await client?.dispose();
    await server?.close();
    await model?.close();
  });

  it("yields a run's answer as it streams, resumes it after a dropped socket, and ends with the run", async () => {
    const sockets: WebSocket[] = [];
    class TrackedWebSocket extends WebSocket {
      constructor(...args: ConstructorParameters<typeof WebSocket>) {
        super(...args);
        sockets.push(this);
      }
    }
    const streaming = createClient({ url: server.url, apiKey: server.apiKey, webSocketImpl: TrackedWebSocket });
    const session = await client.createSession({ title: 'Kitchen' });
    const posted = await client.postMessage({ sessionId: session.id, text: 'Where does the kitchen go?' });
    assert.equal(posted.__typename, 'PostMessageSuccess');
    const runId = posted.__typename === 'PostMessageSuccess' ? posted.run!.id : '';

    const chunks: string[] = [];
    for await (const chunk of streaming.streamRun(runId)) {
      chunks.push(chunk);
      if (chunks.join('') === first) {
        // The model holds the rest back until the socket is gone: the rest arrives on the next one.
        sockets[0].terminate();
        model.release();
      }
    }
    await streaming.dispose();

    assert.ok(sockets.length >= 2, 'a new socket was opened');
    assert.equal(chunks.join(''), first + rest);
    const { node } = await client.request<{ node: { status: string; output: string } }>(
      'query ($id: ID!) { node(id: $id) { ... on Run { status output } } }',
      { id: runId },
    );
    assert.deepEqual(node, { status: 'SUCCEEDED', output: first + rest });

    // A run that has ended yields its whole answer at once.
    const replayed: string[] = [];
    for await (const chunk of client.streamRun(runId)) replayed.push(chunk);
    assert.deepEqual(replayed, [first + rest]);
  });

  it("throws a TransportError for a run that is not the account's", async () => {
    await assert.rejects(
      async () => {
        for await (const chunk of client.streamRun('00000000-0000-4000-8000-000000000000')) assert.fail(`yielded ${chunk}`);
      },
      (error: unknown) => error instanceof TransportError && error.code === 'NOT_FOUND',
    );
  });
});
