import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ChatCompletionCreateParams } from 'openai/resources/chat/completions';
import { AgentConfig, DEFAULT_AGENT_CONFIG } from '../../src/config';

export type FakeAnswer =
  /** Streamed word by word when the request asks for a stream, `pauseMs` between the words. */
  | { text: string; pauseMs?: number }
  | { toolCalls: { id: string; name: string; arguments: string }[] }
  /** Answered as an OpenAI error body with this HTTP status. */
  | { status: number; message: string };

/** `hold` keeps the request open unanswered, like a model still thinking, until released or closed. */
export type FakeReply = FakeAnswer | { hold: true };

export type FakeHandler = (body: ChatCompletionCreateParams) => FakeReply | Promise<FakeReply>;

export interface FakeOpenAI {
  /** Ends in `/v1`, as OpenAI clients expect. */
  baseURL: string;
  /** Every JSON body posted to the chat-completions endpoint, in arrival order. */
  requests: ChatCompletionCreateParams[];
  reply(handler: FakeHandler): void;
  /** Answers every request held so far. */
  releaseHeld(answer: FakeAnswer): void;
  /** Stops listening and drops every connection, held requests included. */
  close(): Promise<void>;
}

interface HeldRequest {
  body: ChatCompletionCreateParams;
  response: ServerResponse;
}

/** A test server's agent on `fake`: the OpenAI provider, polling often so that turns start at once. */
export function agentOn(fake: FakeOpenAI, openai: Partial<AgentConfig['openai']> = {}): AgentConfig {
  return { ...DEFAULT_AGENT_CONFIG, provider: 'openai', openai: { baseURL: fake.baseURL, apiKey: 'sk-test', model: 'test-model', timeoutMs: 10_000, ...openai }, pollMs: 50 };
}

/** A local server speaking OpenAI's chat-completions wire format, for tests over real HTTP. */
/** Sends a reply: an error, a completion, or its stream; `id` names the completion. */
function answer(response: ServerResponse, body: ChatCompletionCreateParams, reply: FakeAnswer, id: string): void {
  if ('status' in reply) {
    sendError(response, reply.status, reply.message, reply.status >= 500 ? 'server_error' : 'invalid_request_error', null);
    return;
  }
  const toolCalls = 'toolCalls' in reply ? reply.toolCalls : [];
  const content = 'text' in reply ? reply.text : null;
  const message = {
    role: 'assistant',
    content,
    refusal: null,
    ...(toolCalls.length > 0 && {
      tool_calls: toolCalls.map((call) => ({
        id: call.id,
        type: 'function',
        function: { name: call.name, arguments: call.arguments },
      })),
    }),
  };
  if (body.stream) {
    void streamAnswer(response, body, id, content, toolCalls, 'pauseMs' in reply ? (reply.pauseMs ?? 0) : 0);
    return;
  }
  // A rough count, so callers that read usage see plausible numbers.
  const promptTokens = Math.ceil(JSON.stringify(body.messages ?? []).length / 4);
  const completionTokens = Math.ceil(JSON.stringify(message).length / 4);
  sendJson(response, 200, {
    id: id,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: body.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: toolCalls.length > 0 ? 'tool_calls' : 'stop' }],
    usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
  });
}

export async function startFakeOpenAI(options: { apiKey?: string } = {}): Promise<FakeOpenAI> {
  const requests: ChatCompletionCreateParams[] = [];
  const held: HeldRequest[] = [];
  let handler: FakeHandler = () => ({ text: 'ok' });
  let completionCount = 0;
  const nextId = () => `chatcmpl-fake${++completionCount}`;

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (request.method !== 'POST' || request.url !== '/v1/chat/completions') {
      sendError(response, 404, `Unknown request URL: ${request.method} ${request.url}.`, 'invalid_request_error', 'unknown_url');
      return;
    }
    let body: ChatCompletionCreateParams;
    try {
      body = JSON.parse(await readBody(request));
    } catch {
      sendError(response, 400, 'We could not parse the JSON body of your request.', 'invalid_request_error', null);
      return;
    }
    requests.push(body);
    if (options.apiKey !== undefined && request.headers.authorization !== `Bearer ${options.apiKey}`) {
      sendError(response, 401, 'Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key');
      return;
    }
    let reply: FakeReply;
    try {
      reply = await handler(body);
    } catch (error) {
      // A failing handler is a bug in the test: say so instead of leaving the client waiting.
      sendError(response, 500, `Fake handler failed: ${(error as Error).message}`, 'server_error', null);
      return;
    }
    if ('hold' in reply) {
      const entry = { body, response };
      held.push(entry);
      // A caller that gives up (or dies) must not be answered later.
      response.on('close', () => {
        const index = held.indexOf(entry);
        if (index >= 0) held.splice(index, 1);
      });
      return;
    }
    answer(response, body, reply, nextId());
  }

  const server = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    reply(next) {
      handler = next;
    },
    releaseHeld(reply) {
      for (const { body, response } of held.splice(0)) answer(response, body, reply, nextId());
    },
    close() {
      held.splice(0);
      return new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Clients keep connections alive, and held requests never end on their own.
        server.closeAllConnections();
      });
    },
  };
}

/**
 * The answer as chat-completions stream chunks in server-sent events: the role first, the text a
 * word at a time, each tool call as its id and name and then its arguments in two pieces, the
 * finish reason, then `[DONE]`. Stops writing when the client goes away (an aborted call).
 */
async function streamAnswer(
  response: ServerResponse,
  body: ChatCompletionCreateParams,
  id: string,
  content: string | null,
  toolCalls: { id: string; name: string; arguments: string }[],
  pauseMs: number,
): Promise<void> {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const created = Math.floor(Date.now() / 1000);
  const send = (delta: Record<string, unknown>, finishReason: string | null = null) =>
    response.write(
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] })}\n\n`,
    );
  send({ role: 'assistant', content: '' });
  for (const word of content?.match(/\S+\s*|\s+/g) ?? []) {
    if (pauseMs > 0) await sleep(pauseMs);
    if (response.destroyed) return;
    send({ content: word });
  }
  toolCalls.forEach((call, index) => {
    const half = Math.ceil(call.arguments.length / 2);
    send({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] });
    send({ tool_calls: [{ index, function: { arguments: call.arguments.slice(0, half) } }] });
    send({ tool_calls: [{ index, function: { arguments: call.arguments.slice(half) } }] });
  });
  send({}, toolCalls.length > 0 ? 'tool_calls' : 'stop');
  response.end('data: [DONE]\n\n');
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function sendError(response: ServerResponse, status: number, message: string, type: string, code: string | null): void {
  sendJson(response, status, { error: { message, type, param: null, code } });
}

function sendJson(response: ServerResponse, status: number, payload: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(payload));
}
