import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { ModelContextExceeded, ModelMessage, ModelProviderError, ModelRequest, ModelToolDefinition, TurnFacts } from '../../src/agent/agent';
import { OpenAIProvider } from '../../src/agent/providers/openai-provider';
import { FakeOpenAI, startFakeOpenAI } from '../helpers/fake-openai';
import { startModelStandIn } from '../helpers/model-stand-in';

const API_KEY = 'sk-test-provider';

const facts: TurnFacts = {
  sessionId: 'session-1',
  sessionTitle: 'Provider test',
  sessionKind: 'ORIGIN',
  userMessage: null,
  earlierUserMessages: [],
  citableRange: null,
  contextUsage: { tokens: 0, windowTokens: 128_000, threshold: 0.8 },
  openPlan: null,
  pendingRunIds: [],
  delegatedTask: null,
};

const readFileTool: ModelToolDefinition = {
  name: 'read_file',
  description: 'Reads a file of the workspace.',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};

function ask(messages: ModelMessage[], extra: Partial<ModelRequest> = {}): ModelRequest {
  return { messages, tools: [], facts, ...extra };
}

function providerFor(baseURL: string, overrides: { apiKey?: string; timeoutMs?: number } = {}): OpenAIProvider {
  return new OpenAIProvider({ baseURL, apiKey: API_KEY, model: 'gpt-test', maxRetries: 0, ...overrides });
}

/** A port that was just free and is now closed: nothing answers there. */
async function closedPortURL(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/v1`;
}

async function failureOf(promise: Promise<unknown>): Promise<ModelProviderError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the model call to fail');
    },
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(ModelProviderError);
  const message = (error as ModelProviderError).message;
  expect(message).not.toMatch(/\n\s+at /);
  return error as ModelProviderError;
}

async function waitFor(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('OpenAIProvider against an OpenAI-compatible server', () => {
  let fake: FakeOpenAI;
  let provider: OpenAIProvider;

  beforeEach(async () => {
    fake = await startFakeOpenAI({ apiKey: API_KEY });
    provider = providerFor(fake.baseURL);
  });
  afterEach(() => fake.close());

  it('returns a plain answer and sends no tools when none are offered', async () => {
    fake.reply(() => ({ text: 'Hello there' }));

    const reply = await provider.complete(ask([{ role: 'user', content: 'Hi' }]));

    expect(provider.name).toBe('openai');
    expect(reply).toEqual({ text: 'Hello there', toolCalls: [] });
    expect(fake.requests).toEqual([{ model: 'gpt-test', messages: [{ role: 'user', content: 'Hi' }], stream: true }]);
  });

  it('sends every kind of message and the tools in the OpenAI shape', async () => {
    await provider.complete(
      ask(
        [
          { role: 'system', content: 'You are terse.' },
          { role: 'user', content: 'Show me the readme' },
          { role: 'assistant', content: null, toolCalls: [{ id: 'call_1', name: 'read_file', arguments: '{"path":"README.md"}' }] },
          { role: 'tool', toolCallId: 'call_1', content: '# Project' },
          { role: 'assistant', content: 'It is a project.' },
        ],
        { tools: [readFileTool] },
      ),
    );

    expect(fake.requests).toEqual([
      {
        model: 'gpt-test',
        messages: [
          { role: 'system', content: 'You are terse.' },
          { role: 'user', content: 'Show me the readme' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"README.md"}' } }],
          },
          { role: 'tool', tool_call_id: 'call_1', content: '# Project' },
          { role: 'assistant', content: 'It is a project.' },
        ],
        tools: [
          {
            type: 'function',
            function: { name: 'read_file', description: readFileTool.description, parameters: readFileTool.parameters },
          },
        ],
        tool_choice: 'auto',
        stream: true,
      },
    ]);
  });

  it('hands the text on piece by piece as the stream brings it, and returns all of it', async () => {
    fake.reply(() => ({ text: 'Streamed in several pieces, as a model writes.' }));
    const deltas: string[] = [];

    const reply = await provider.complete(ask([{ role: 'user', content: 'Hi' }], { onTextDelta: (delta) => deltas.push(delta) }));

    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join('')).toBe('Streamed in several pieces, as a model writes.');
    expect(reply).toEqual({ text: 'Streamed in several pieces, as a model writes.', toolCalls: [] });
  });

  it('stops a streaming answer when the caller aborts, keeping what was handed on', async () => {
    fake.reply(() => ({ text: 'one two three four five six seven eight nine ten', pauseMs: 100 }));
    const abort = new AbortController();
    const deltas: string[] = [];

    const answered = provider.complete(
      ask([{ role: 'user', content: 'Hi' }], {
        signal: abort.signal,
        onTextDelta: (delta) => {
          deltas.push(delta);
          if (deltas.length === 2) abort.abort();
        },
      }),
    );

    const error = await failureOf(answered);
    expect(error.message).toMatch(/aborted/);
    expect(deltas).toEqual(['one ', 'two ']);
  });

  it('maps tool calls in the reply', async () => {
    fake.reply(() => ({
      toolCalls: [
        { id: 'call_a', name: 'read_file', arguments: '{"path":"a.txt"}' },
        { id: 'call_b', name: 'read_file', arguments: '{"path":' },
      ],
    }));

    const reply = await provider.complete(ask([{ role: 'user', content: 'Read a.txt' }], { tools: [readFileTool] }));

    expect(reply).toEqual({
      text: null,
      toolCalls: [
        { id: 'call_a', name: 'read_file', arguments: '{"path":"a.txt"}' },
        { id: 'call_b', name: 'read_file', arguments: '{"path":' },
      ],
    });
  });

  it("reports a server error with the server's message", async () => {
    fake.reply(() => ({ status: 500, message: 'The server had an error while processing your request.' }));

    const error = await failureOf(provider.complete(ask([{ role: 'user', content: 'Hi' }])));

    expect(error.message).toBe('Model provider answered 500: The server had an error while processing your request.');
  });

  it('reports a wrong API key as a 401', async () => {
    const wrongKey = providerFor(fake.baseURL, { apiKey: 'sk-wrong' });

    const error = await failureOf(wrongKey.complete(ask([{ role: 'user', content: 'Hi' }])));

    expect(error.message).toBe('Model provider answered 401: Incorrect API key provided.');
  });

  it('reports a server that does not answer in time', async () => {
    fake.reply(() => ({ hold: true }));
    const impatient = providerFor(fake.baseURL, { timeoutMs: 200 });

    const error = await failureOf(impatient.complete(ask([{ role: 'user', content: 'Hi' }])));

    expect(error.message).toBe(`Model provider at ${fake.baseURL} did not answer within 200 ms`);
  });

  it('rejects when the caller aborts while the model is still thinking', async () => {
    fake.reply(() => ({ hold: true }));
    const controller = new AbortController();

    const pending = provider.complete(ask([{ role: 'user', content: 'Think hard' }], { signal: controller.signal }));
    await waitFor(() => fake.requests.length === 1);
    controller.abort();

    const error = await failureOf(pending);
    expect(error.message).toBe(`Model request to ${fake.baseURL} was aborted before the model answered`);
  });

  it('answers held requests once released', async () => {
    fake.reply(() => ({ hold: true }));

    const pending = provider.complete(ask([{ role: 'user', content: 'Think hard' }]));
    await waitFor(() => fake.requests.length === 1);
    fake.releaseHeld({ text: 'Done thinking' });

    await expect(pending).resolves.toEqual({ text: 'Done thinking', toolCalls: [] });
  });
});

describe('OpenAIProvider when no usable server answers', () => {
  it('reports an unreachable address', async () => {
    const baseURL = await closedPortURL();

    const error = await failureOf(providerFor(baseURL).complete(ask([{ role: 'user', content: 'Hi' }])));

    expect(error.message).toMatch(
      new RegExp(`^Model provider unreachable at ${baseURL.replace(/\./g, '\\.')}: connect ECONNREFUSED 127\\.0\\.0\\.1:\\d+$`),
    );
  });

  it('reports a successful response without choices', async () => {
    const server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ id: 'chatcmpl-empty', object: 'chat.completion', created: 0, model: 'gpt-test', choices: [] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    try {
      const error = await failureOf(providerFor(baseURL).complete(ask([{ role: 'user', content: 'Hi' }])));

      expect(error.message).toBe(`Model provider at ${baseURL} answered without any choices`);
    } finally {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    }
  });
});

describe('refusals for the context length, as each server words them', () => {
  const long: ModelMessage[] = [{ role: 'user', content: 'harbour '.repeat(600) }];

  it.each([
    ['openai', 500],
    ['vllm', 500],
    ['llama.cpp', 500],
  ] as const)('recognises %s\'s refusal and takes the length it states', async (provider, limit) => {
    const model = await startModelStandIn({ contextTokens: limit, provider });
    try {
      const refusal = await providerFor(model.baseURL)
        .complete(ask(long, { maxOutputTokens: 64 }))
        .catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(ModelContextExceeded);
      expect((refusal as ModelContextExceeded).limit).toBe(limit);
      // A compatible server is sent the answer's cap as max_tokens.
      expect(model.requests[0].body).toMatchObject({ max_tokens: 64 });
    } finally {
      await model.close();
    }
  });

  it("recognises Ollama's refusal, which states no length", async () => {
    const model = await startModelStandIn({ contextTokens: 500, provider: 'ollama', ollamaContextShift: false });
    try {
      const refusal = await providerFor(model.baseURL)
        .complete(ask(long))
        .catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(ModelContextExceeded);
      expect((refusal as ModelContextExceeded).limit).toBeNull();
    } finally {
      await model.close();
    }
  });

  it('forces the tool the runtime asks for through tool_choice', async () => {
    const model = await startModelStandIn({ contextTokens: 8_000 });
    try {
      const reply = await providerFor(model.baseURL).complete(ask([{ role: 'user', content: 'Which file?' }], { tools: [readFileTool], requiredTool: 'read_file' }));
      expect(model.requests[0].body.tool_choice).toEqual({ type: 'function', function: { name: 'read_file' } });
      expect(reply.toolCalls.map((call) => call.name)).toEqual(['read_file']);
    } finally {
      await model.close();
    }
  });
});
