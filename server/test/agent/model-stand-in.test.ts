import { randomUUID } from 'node:crypto';
import { GraphQLSchema } from 'graphql';
import { countChatCompletionTokens } from 'gpt-tokenizer/model/gpt-4o';
import OpenAI from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { continueSessionTool, continueSessionToolRequest } from '../../src/modules/continuation/continue-session.tool';
import { createAppPubSub } from '../../src/api/pubsub';
import { buildAppSchema } from '../../src/api/schema';
import { RUNTIME_TOOLS } from '../../src/agent/tools';
import { ModelStandIn, ModelStandInOptions, startModelStandIn, tokensOf } from '../helpers/model-stand-in';

let schema: GraphQLSchema;
let continueSession: ChatCompletionTool;
const runtimeTools: ChatCompletionTool[] = RUNTIME_TOOLS.map((tool) => ({ type: 'function', function: tool }));
const opened: ModelStandIn[] = [];

beforeAll(async () => {
  schema = await buildAppSchema(createAppPubSub());
  continueSession = continueSessionTool(schema) as unknown as ChatCompletionTool;
});

afterEach(async () => {
  await Promise.all(opened.splice(0).map((standIn) => standIn.close()));
});

async function standIn(options: Partial<ModelStandInOptions> = {}): Promise<{ model: ModelStandIn; client: OpenAI }> {
  const model = await startModelStandIn({ contextTokens: 128_000, ...options });
  opened.push(model);
  return { model, client: new OpenAI({ baseURL: model.baseURL, apiKey: 'sk-test', maxRetries: 0 }) };
}

/** What the SDK throws for `call`. */
async function rejection(call: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  try {
    await call;
  } catch (error) {
    if (error instanceof OpenAI.APIError) return error;
    throw error;
  }
  throw new Error('The call succeeded');
}

/** The SSE body of a streamed request, as data lines (`[DONE]` kept as text). */
async function rawStream(model: ModelStandIn, body: Record<string, unknown>): Promise<(Record<string, any> | string)[]> {
  const response = await fetch(`${model.baseURL}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test' },
    body: JSON.stringify({ model: 'gpt-4o', stream: true, ...body }),
  });
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const text = await response.text();
  expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
  return text
    .split('\n\n')
    .filter(Boolean)
    .map((event) => {
      expect(event.startsWith('data: ')).toBe(true);
      const data = event.slice('data: '.length);
      return data === '[DONE]' ? data : JSON.parse(data);
    });
}

/** A conversation of `turns` exchanges, with names, punctuation and a few non-ASCII words. */
function conversation(turns: number): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = [{ role: 'system', content: 'You are the assistant of "Kitchen renovation". Answer briefly.' }];
  for (let turn = 0; turn < turns; turn += 1) {
    messages.push({ role: 'user', content: `Step ${turn + 1}: the tiles (€${12 + turn}/m², grès cérame) need grout; what about the joints near the sink?` });
    messages.push({ role: 'assistant', content: `For step ${turn + 1}, seal the joints first — epoxy grout resists water best.` });
  }
  messages.push({ role: 'user', name: 'dana', content: 'And what should I do next?' });
  return messages;
}

/** gpt-tokenizer's estimate of the same request (its function format is the tools' `function` part). */
function gptTokenizerCount(messages: ChatCompletionMessageParam[], tools: ChatCompletionTool[] = []): number {
  return countChatCompletionTokens!({
    messages: messages as { role: string; content: string }[],
    ...(tools.length > 0 && { functions: tools.map((tool) => (tool as unknown as { function: never }).function) }),
  });
}

const CITABLE_SESSION: string = randomUUID();
const CITABLE_FIRST: string = randomUUID();
const CITABLE_LAST: string = randomUUID();

/** A turn whose instructions advise continuing and whose last message shows events to cite. */
function pressuredTurn(): ChatCompletionMessageParam[] {
  return [
    {
      role: 'system',
      content:
        'You are the assistant of the conversation "Kitchen renovation". Context usage: 7400 of 8000 tokens (93%); a continuation is advised from 70%. ' +
        'The context is past that share: continue in a new session (continue_session, reason context_pressure) before answering at length.',
    },
    { role: 'user', content: 'We are renovating the kitchen: tiles, grout and the sink.' },
    { role: 'assistant', content: 'Start with the tiles, then the grout.' },
    {
      role: 'user',
      content: `Session ${CITABLE_SESSION}: events seq 1 (id ${CITABLE_FIRST}) to seq 3 (id ${CITABLE_LAST}) can be cited.\nWhich grout goes near the sink?`,
    },
  ];
}

describe('counting prompts as a provider does', () => {
  it('counts messages exactly as the cookbook formula, which gpt-tokenizer implements, and reports it as usage', async () => {
    const { model, client } = await standIn();
    const messages = conversation(20);
    const completion = await client.chat.completions.create({ model: 'gpt-4o', messages });
    expect(model.requests[0].promptTokens).toBe(gptTokenizerCount(messages));
    expect(completion.usage?.prompt_tokens).toBe(model.requests[0].promptTokens);
  });

  it("counts OpenAI's own tool example within one token of what the API reported (101 for gpt-4o)", async () => {
    const { model, client } = await standIn();
    const tools: ChatCompletionTool[] = [
      {
        type: 'function',
        function: {
          name: 'get_current_weather',
          description: 'Get the current weather in a given location',
          parameters: {
            type: 'object',
            properties: {
              location: { type: 'string', description: 'The city and state, e.g. San Francisco, CA' },
              unit: { type: 'string', description: 'The unit of temperature to return', enum: ['celsius', 'fahrenheit'] },
            },
            required: ['location'],
          },
        },
      },
    ];
    const messages: ChatCompletionMessageParam[] = [
      { role: 'system', content: 'You are a helpful assistant that can answer to questions about the weather.' },
      { role: 'user', content: "What's the weather like in San Francisco?" },
    ];
    await client.chat.completions.create({ model: 'gpt-4o', messages, tools });
    expect(Math.abs(model.requests[0].promptTokens - 101)).toBeLessThanOrEqual(1);
    expect(Math.abs(model.requests[0].promptTokens - gptTokenizerCount(messages, tools))).toBeLessThanOrEqual(1);
  });

  it("counts the runtime's flat tools within 2 tokens of gpt-tokenizer, and continue_session's nested schema between its estimate and the JSON", async () => {
    const { model, client } = await standIn();
    const messages = conversation(10);
    await client.chat.completions.create({ model: 'gpt-4o', messages, tools: runtimeTools });
    await client.chat.completions.create({ model: 'gpt-4o', messages, tools: [continueSession] });
    const [flat, nested] = model.requests;
    expect(Math.abs(flat.promptTokens - gptTokenizerCount(messages, runtimeTools))).toBeLessThanOrEqual(2);
    expect(flat.prompt.tools).toBeGreaterThan(400);
    // gpt-tokenizer writes `oneOf` as `any` and drops descriptions below the first level; a model
    // has to read them, so the stand-in counts them, and stays below the definition's raw JSON.
    expect(nested.promptTokens).toBeGreaterThan(gptTokenizerCount(messages, [continueSession]));
    expect(nested.prompt.tools).toBeLessThan(tokensOf(JSON.stringify(continueSession)));
  });

  it('counts a response_format schema and assistant tool calls as part of the prompt', async () => {
    const { model, client } = await standIn();
    const messages: ChatCompletionMessageParam[] = [
      { role: 'system', content: 'Draft a handoff.' },
      { role: 'user', content: 'Find the grout notes.' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'search_history', arguments: '{"query":"grout"}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: '{"hits":[]}' },
    ];
    const parameters = (continueSession as { function: { parameters: Record<string, unknown> } }).function.parameters;
    await client.chat.completions.create({
      model: 'gpt-4o',
      messages,
      response_format: { type: 'json_schema', json_schema: { name: 'handoff', schema: parameters } },
    });
    const [request] = model.requests;
    expect(request.prompt.responseFormat).toBeGreaterThan(tokensOf(JSON.stringify(parameters)));
    const withoutCall = messages.slice(0, 2);
    expect(request.promptTokens - request.prompt.responseFormat).toBeGreaterThan(gptTokenizerCount(withoutCall) + tokensOf('{"query":"grout"}'));
  });
});

describe("refusing what does not fit, with the provider's own answer", () => {
  it('refuses a prompt over the context as OpenAI does, which the SDK raises as BadRequestError context_length_exceeded', async () => {
    const { model, client } = await standIn({ contextTokens: 500 });
    const messages = conversation(12);
    const error = await rejection(client.chat.completions.create({ model: 'gpt-4o', messages }));
    const counted = model.requests[0].promptTokens;
    expect(counted).toBeGreaterThan(500);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error.status).toBe(400);
    expect(error.code).toBe('context_length_exceeded');
    expect(error.param).toBe('messages');
    expect(error.type).toBe('invalid_request_error');
    expect((error.error as { message: string }).message).toBe(
      `This model's maximum context length is 500 tokens. However, your messages resulted in ${counted} tokens. Please reduce the length of the messages.`,
    );
    expect(model.requests[0]).toMatchObject({ outcome: 'refused', overContext: true, status: 400 });
  });

  it('counts the requested completion into the context, and names it in the refusal', async () => {
    const { model, client } = await standIn({ contextTokens: 400 });
    const messages = conversation(4);
    const ok = await client.chat.completions.create({ model: 'gpt-4o', messages, max_tokens: 50 });
    const prompt = model.requests[0].promptTokens;
    expect(prompt + 50).toBeLessThanOrEqual(400);
    expect(ok.choices[0].message.content).toBeTruthy();
    const cap = 400 - prompt + 1;
    const error = await rejection(client.chat.completions.create({ model: 'gpt-4o', messages, max_completion_tokens: cap, stream: true }));
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error.code).toBe('context_length_exceeded');
    expect((error.error as { message: string }).message).toBe(
      `This model's maximum context length is 400 tokens. However, you requested ${prompt + cap} tokens (${prompt} in the messages, ${cap} in the completion). Please reduce the length of the messages or completion.`,
    );
  });

  it("refuses a cap above the model's own output limit as OpenAI does", async () => {
    const { client } = await standIn({ maxCompletionTokens: 16_384 });
    const error = await rejection(client.chat.completions.create({ model: 'gpt-4o', messages: conversation(1), max_tokens: 20_000 }));
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error.param).toBe('max_tokens');
    expect((error.error as { message: string }).message).toBe(
      'max_tokens is too large: 20000. This model supports at most 16384 completion tokens, whereas you provided 20000.',
    );
  });

  it('refuses as vLLM does: the prompt against the context less the requested output, input_tokens named', async () => {
    const { model, client } = await standIn({ contextTokens: 500, provider: 'vllm' });
    const messages = conversation(8);
    const error = await rejection(client.chat.completions.create({ model: 'qwen', messages, max_tokens: 200 }));
    const prompt = model.requests[0].promptTokens;
    expect(prompt).toBeGreaterThan(300);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error.error).toEqual({
      message:
        `You passed ${prompt} input tokens and requested 200 output tokens. However, the model's context length is only 500 tokens, ` +
        `resulting in a maximum input length of 300 tokens. Please reduce the length of the input prompt. (parameter=input_tokens, value=${prompt})`,
      type: 'BadRequestError',
      param: 'input_tokens',
      code: 400,
    });
  });

  it("refuses as llama.cpp's server does, and lets an answer run into the context's end with finish_reason length", async () => {
    const { model, client } = await standIn({ contextTokens: 500, provider: 'llama.cpp', replyTokens: 400 });
    const error = await rejection(client.chat.completions.create({ model: 'local', messages: conversation(12) }));
    const prompt = model.requests[0].promptTokens;
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error.error).toEqual({
      code: 400,
      message: `request (${prompt} tokens) exceeds the available context size (500 tokens), try increasing it`,
      type: 'exceed_context_size_error',
      n_prompt_tokens: prompt,
      n_ctx: 500,
    });
    // The requested output is not checked: the answer stops where the context ends.
    const answered = await client.chat.completions.create({ model: 'local', messages: conversation(3), max_tokens: 1000 });
    const fitted = model.requests[1];
    expect(answered.choices[0].finish_reason).toBe('length');
    expect(fitted.promptTokens + fitted.completionTokens).toBe(500);
  });

  it("truncates silently as Ollama does: the oldest messages dropped, system kept, 200 and a smaller usage", async () => {
    const { model, client } = await standIn({ contextTokens: 600, provider: 'ollama' });
    const messages = conversation(15);
    const completion = await client.chat.completions.create({ model: 'llama3', messages });
    const [request] = model.requests;
    expect(request.promptTokens).toBeGreaterThan(600);
    expect(request).toMatchObject({ outcome: 'truncated', status: 200 });
    expect(request.droppedMessages).toBeGreaterThan(0);
    expect(request.readTokens).toBeLessThanOrEqual(600);
    expect(completion.usage?.prompt_tokens).toBe(request.readTokens);
    // Nothing in the answer says so.
    expect(completion.choices[0].finish_reason).toBe('stop');
    expect(completion.choices[0].message.content).toContain('what should I do next');
  });

  it('refuses as Ollama does when even the last message does not fit and context shift is off', async () => {
    const { client } = await standIn({ contextTokens: 100, provider: 'ollama', ollamaContextShift: false });
    const error = await rejection(
      client.chat.completions.create({ model: 'llama3', messages: [{ role: 'user', content: 'grout '.repeat(300) }] }),
    );
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error.error).toEqual({
      message:
        'the prompt is longer than the context length currently available to the model; shorten the prompt, adjust the context length in settings, or use a model with a longer context length',
      type: 'invalid_request_error',
      param: null,
      code: null,
    });
  });

  it('takes its limit from its own options, not from what the client believes, and can be changed between requests', async () => {
    const { model, client } = await standIn({ contextTokens: 5_000 });
    const messages = conversation(150);
    expect((await rejection(client.chat.completions.create({ model: 'gpt-4o', messages }))).code).toBe('context_length_exceeded');
    model.configure({ contextTokens: 12_000 });
    await client.chat.completions.create({ model: 'gpt-4o', messages });
    expect(model.requests.map((request) => [request.contextTokens, request.outcome])).toEqual([
      [5_000, 'refused'],
      [12_000, 'answered'],
    ]);
    expect(model.requests[0].promptTokens).toBeGreaterThan(5_000);
    expect(model.requests[0].promptTokens).toBeLessThan(12_000);
    expect(model.largestPrompt()).toBe(model.requests[0].promptTokens);
  });

  it('refuses tool messages that do not answer the calls before them, as OpenAI does', async () => {
    const { client } = await standIn();
    const unanswered = await rejection(
      client.chat.completions.create({
        model: 'gpt-4o',
        messages: [
          { role: 'user', content: 'Find the grout notes.' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'call_a', type: 'function', function: { name: 'search_history', arguments: '{}' } }] },
          { role: 'user', content: 'Never mind.' },
        ],
        tools: runtimeTools,
      }),
    );
    expect(unanswered.message).toContain(
      "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_a",
    );
    const orphan = await rejection(
      client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }, { role: 'tool', tool_call_id: 'call_b', content: '{}' }] }),
    );
    expect(orphan.param).toBe('messages.[1].role');
    expect(orphan.message).toContain("messages with role 'tool' must be a response to a preceeding message with 'tool_calls'");
    const malformed = await rejection(client.chat.completions.create({ model: 'gpt-4o', messages: [{ content: 'Hi' } as ChatCompletionMessageParam] }));
    expect(malformed).toBeInstanceOf(OpenAI.BadRequestError);
    expect(malformed.param).toBe('messages[0]');
  });
});

describe('streaming as OpenAI streams', () => {
  it('streams text a token per chunk: role first, finish reason, usage in a last chunk without choices, then [DONE]', async () => {
    const { model } = await standIn({ replyTokens: 30 });
    const events = await rawStream(model, { messages: conversation(2), stream_options: { include_usage: true } });
    expect(events[events.length - 1]).toBe('[DONE]');
    const chunks = events.slice(0, -1) as Record<string, any>[];
    expect(chunks.every((chunk) => chunk.object === 'chat.completion.chunk' && chunk.id === chunks[0].id && 'usage' in chunk)).toBe(true);
    expect(chunks[0].choices[0].delta).toEqual({ role: 'assistant', content: '', refusal: null });
    const text = chunks.flatMap((chunk) => chunk.choices.map((choice: any) => choice.delta.content ?? '')).join('');
    expect(tokensOf(text)).toBe(30);
    expect(chunks.length).toBeGreaterThanOrEqual(30 + 3);
    const finish = chunks[chunks.length - 2];
    expect(finish.choices[0]).toMatchObject({ delta: {}, finish_reason: 'stop' });
    const last = chunks[chunks.length - 1];
    expect(last.choices).toEqual([]);
    expect(last.usage).toMatchObject({ prompt_tokens: model.requests[0].promptTokens, completion_tokens: 30 });
  });

  it('streams a forced tool call as its id and name, then its arguments in pieces, which the SDK reassembles', async () => {
    const { model, client } = await standIn();
    const events = await rawStream(model, {
      messages: pressuredTurn(),
      tools: [continueSession, ...runtimeTools],
      tool_choice: { type: 'function', function: { name: 'continue_session' } },
    });
    const deltas = (events.slice(0, -1) as Record<string, any>[]).map((chunk) => chunk.choices[0]?.delta?.tool_calls?.[0]).filter(Boolean);
    expect(deltas[0]).toMatchObject({ index: 0, type: 'function', function: { name: 'continue_session', arguments: '' } });
    expect(deltas[0].id).toMatch(/^call_/);
    expect(deltas.slice(1).every((delta) => delta.id === undefined && delta.function.name === undefined)).toBe(true);
    expect(deltas.length).toBeGreaterThan(10);

    const stream = client.chat.completions.stream({
      model: 'gpt-4o',
      messages: pressuredTurn(),
      tools: [continueSession, ...runtimeTools],
      tool_choice: { type: 'function', function: { name: 'continue_session' } },
    });
    const final = await stream.finalChatCompletion();
    const call = final.choices[0].message.tool_calls?.[0];
    expect(call?.type === 'function' && call.function.name).toBe('continue_session');
    // OpenAI ends a call forced by name with `stop`, one forced by `required` with `tool_calls`.
    expect(final.choices[0].finish_reason).toBe('stop');
    expect(call?.type === 'function' && JSON.parse(call.function.arguments)).toEqual(JSON.parse(model.requests[1].toolCall!.arguments));
  });
});

describe('calling tools only when forced', () => {
  it('answers in text when tool_choice is absent or auto, even when the instructions advise continue_session', async () => {
    const { model, client } = await standIn({ replyTokens: 40 });
    const tools = [continueSession, ...runtimeTools];
    const absent = await client.chat.completions.create({ model: 'gpt-4o', messages: pressuredTurn(), tools });
    const auto = await client.chat.completions.create({ model: 'gpt-4o', messages: pressuredTurn(), tools, tool_choice: 'auto', stream: true });
    let streamed = '';
    for await (const chunk of auto) {
      expect(chunk.choices[0]?.delta?.tool_calls).toBeUndefined();
      streamed += chunk.choices[0]?.delta?.content ?? '';
    }
    expect(absent.choices[0].message.tool_calls).toBeUndefined();
    expect(absent.choices[0].finish_reason).toBe('stop');
    for (const text of [absent.choices[0].message.content!, streamed]) {
      expect(text).toContain('Which grout goes near the sink');
      expect(tokensOf(text)).toBe(40);
    }
    expect(model.requests.map((request) => request.forced)).toEqual([null, null]);
  });

  it('drafts a continue_session call the API accepts when forced by name: the request, a title, the cited events', async () => {
    const { model, client } = await standIn();
    const completion = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: pressuredTurn(),
      tools: [continueSession, ...runtimeTools],
      tool_choice: { type: 'function', function: { name: 'continue_session' } },
    });
    const call = completion.choices[0].message.tool_calls![0];
    expect(completion.choices[0].message.content).toBeNull();
    const args = JSON.parse(call.type === 'function' ? call.function.arguments : '');
    const parsed = continueSessionToolRequest(schema, args, { sessionId: CITABLE_SESSION, idempotencyKey: call.id, initiatingEventId: null });
    expect(parsed.ok).toBe(true);
    expect(args.reason).toBe('context_pressure');
    expect(args.title.length).toBeGreaterThan(0);
    expect(args.handoff.currentRequest).toContain('Which grout goes near the sink?');
    expect(args.handoff.purpose).toContain('We are renovating the kitchen');
    expect(args.sources).toEqual([
      expect.objectContaining({ kind: 'session_events', sessionId: CITABLE_SESSION, fromEventId: CITABLE_FIRST, toEventId: CITABLE_LAST }),
    ]);
    expect(model.requests[0].forced).toEqual({ kind: 'tool', name: 'continue_session' });
  });

  it('calls a tool under tool_choice required, ending with tool_calls, and cites nothing it was not shown', async () => {
    const { client } = await standIn();
    const completion = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Please continue_session: this topic is done.' }],
      tools: [...runtimeTools, continueSession],
      tool_choice: 'required',
    });
    const call = completion.choices[0].message.tool_calls![0];
    expect(completion.choices[0].finish_reason).toBe('tool_calls');
    expect(call.type === 'function' && call.function.name).toBe('continue_session');
    const args = JSON.parse(call.type === 'function' ? call.function.arguments : '');
    expect(args.sources).toEqual([]);
    expect(continueSessionToolRequest(schema, args, { sessionId: randomUUID(), idempotencyKey: call.id, initiatingEventId: null }).ok).toBe(true);
  });

  it('answers a response_format json_schema with JSON of that schema', async () => {
    const { client } = await standIn();
    const parameters = (continueSession as { function: { parameters: Record<string, unknown> } }).function.parameters;
    const completion = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: pressuredTurn(),
      response_format: { type: 'json_schema', json_schema: { name: 'continue_session', schema: parameters, strict: false } },
    });
    const args = JSON.parse(completion.choices[0].message.content!);
    expect(continueSessionToolRequest(schema, args, { sessionId: CITABLE_SESSION, idempotencyKey: 'key-1', initiatingEventId: null }).ok).toBe(true);
  });

  it('drafts wrong for the first forced calls when told to, then right', async () => {
    const { model, client } = await standIn();
    model.invalidDrafts(1, 'missing-required');
    model.invalidDrafts(1, 'unknown-event-id');
    model.invalidDrafts(1, 'malformed-json');
    const draft = async () => {
      const completion = await client.chat.completions.create({
        model: 'gpt-4o',
        messages: pressuredTurn(),
        tools: [continueSession],
        tool_choice: { type: 'function', function: { name: 'continue_session' } },
      });
      const call = completion.choices[0].message.tool_calls![0];
      return call.type === 'function' ? call.function.arguments : '';
    };
    const missing = JSON.parse(await draft());
    expect(continueSessionToolRequest(schema, missing, { sessionId: CITABLE_SESSION, idempotencyKey: 'k', initiatingEventId: null }).ok).toBe(false);
    const unknown = JSON.parse(await draft());
    const cited = unknown.sources.map((source: { eventId?: string; fromEventId?: string }) => source.eventId ?? source.fromEventId);
    expect(cited.some((id: string) => ![CITABLE_FIRST, CITABLE_LAST].includes(id))).toBe(true);
    await expect(draft().then(JSON.parse)).rejects.toThrow(SyntaxError);
    const fine = JSON.parse(await draft());
    expect(continueSessionToolRequest(schema, fine, { sessionId: CITABLE_SESSION, idempotencyKey: 'k', initiatingEventId: null }).ok).toBe(true);
  });

  it('cuts a forced call at max_tokens with finish_reason length, its arguments unfinished', async () => {
    const { client } = await standIn();
    const completion = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: pressuredTurn(),
      tools: [continueSession],
      tool_choice: { type: 'function', function: { name: 'continue_session' } },
      max_tokens: 20,
    });
    const call = completion.choices[0].message.tool_calls![0];
    expect(completion.choices[0].finish_reason).toBe('length');
    expect(completion.usage?.completion_tokens).toBe(20);
    expect(() => JSON.parse(call.type === 'function' ? call.function.arguments : '')).toThrow();
  });
});

describe('failing and taking time as a model does', () => {
  it('fails with a 5xx when told to, then answers', async () => {
    const { model, client } = await standIn();
    model.failNext(1, { status: 503 });
    const error = await rejection(client.chat.completions.create({ model: 'gpt-4o', messages: conversation(1) }));
    expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    expect(error.status).toBe(503);
    expect((await client.chat.completions.create({ model: 'gpt-4o', messages: conversation(1) })).choices[0].message.content).toBeTruthy();
    expect(model.requests.map((request) => request.outcome)).toEqual(['failed', 'answered']);
  });

  it('hangs when told to until the client gives up, or until released', async () => {
    const { model, client } = await standIn();
    model.hangNext(2);
    const impatient = new OpenAI({ baseURL: model.baseURL, apiKey: 'sk-test', maxRetries: 0, timeout: 300 });
    const timedOut = await rejection(impatient.chat.completions.create({ model: 'gpt-4o', messages: conversation(1) }));
    // The SDK's timeout is an APIConnectionTimeoutError, seen as its parent class across a test runner's realms.
    expect(timedOut).toBeInstanceOf(OpenAI.APIConnectionError);
    const waiting = client.chat.completions.create({ model: 'gpt-4o', messages: conversation(1) });
    await until(() => model.requests.length === 2);
    model.releaseHung();
    expect((await waiting).choices[0].finish_reason).toBe('stop');
    await until(() => model.requests[0].outcome === 'aborted');
    expect(model.requests.map((request) => request.outcome)).toEqual(['aborted', 'answered']);
  });

  it('records when each request arrived and its first token left, and the model time it spent waiting', async () => {
    const { model, client } = await standIn({ replyTokens: 10, timing: { firstTokenMs: 120, perTokenMs: 4 } });
    const stream = await client.chat.completions.create({ model: 'gpt-4o', messages: conversation(1), stream: true });
    for await (const chunk of stream) void chunk;
    await client.chat.completions.create({ model: 'gpt-4o', messages: conversation(1) });
    const [streamed, whole] = model.requests;
    expect(streamed.firstTokenAt! - streamed.arrivedAt).toBeGreaterThanOrEqual(120);
    expect(streamed.finishedAt! - streamed.firstTokenAt!).toBeGreaterThanOrEqual(9 * 4);
    // Timers wait at least what they are asked, and the time actually waited is what a benchmark subtracts.
    expect(streamed.modelFirstTokenMs).toBeGreaterThanOrEqual(119);
    expect(streamed.modelTimeMs).toBeGreaterThanOrEqual(120 + 9 * 4 - 1);
    expect(streamed.modelTimeMs).toBeLessThanOrEqual(streamed.finishedAt! - streamed.arrivedAt);
    expect(whole.modelTimeMs).toBeGreaterThanOrEqual(120 + 10 * 4 - 1);
    expect(whole.firstTokenAt! - whole.arrivedAt).toBeGreaterThanOrEqual(whole.modelTimeMs);
  });
});

async function until(condition: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 200 && !condition(); attempt += 1) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(condition()).toBe(true);
}
