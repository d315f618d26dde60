import OpenAI from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { tokensOf } from '../helpers/model-stand-in';
import { closeStandIns, continueSessionOf, conversation, gptTokenizerCount, rejection, runtimeTools, standIn } from '../helpers/model-stand-in-requests';

let continueSession: ChatCompletionTool;

beforeAll(async () => {
  ({ continueSession } = await continueSessionOf());
});

afterEach(closeStandIns);

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
