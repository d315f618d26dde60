import { randomUUID } from 'node:crypto';
import { GraphQLSchema } from 'graphql';
import OpenAI from 'openai';
import type { ChatCompletionTool } from 'openai/resources/chat/completions';
import { continueSessionToolRequest } from '../../src/modules/continuation/continue-session.tool';
import { tokensOf } from '../helpers/model-stand-in';
import { CITABLE_FIRST, CITABLE_LAST, CITABLE_SESSION, closeStandIns, continueSessionOf, conversation, pressuredTurn, rawStream, rejection, runtimeTools, standIn } from '../helpers/model-stand-in-requests';

let schema: GraphQLSchema;
let continueSession: ChatCompletionTool;

beforeAll(async () => {
  ({ schema, continueSession } = await continueSessionOf());
});

afterEach(closeStandIns);

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
    // A timer starts from the event loop's clock, kept in whole milliseconds and read at the start
    // of the loop's turn: measured by the clock, each can end up to a millisecond early.
    const early = (timers: number) => timers; // milliseconds, at most one per timer
    expect(streamed.firstTokenAt! - streamed.arrivedAt).toBeGreaterThanOrEqual(120 - early(1));
    expect(streamed.finishedAt! - streamed.firstTokenAt!).toBeGreaterThanOrEqual(9 * 4 - early(9));
    // The time actually waited is what a benchmark subtracts.
    expect(streamed.modelFirstTokenMs).toBeGreaterThanOrEqual(120 - early(1));
    expect(streamed.modelTimeMs).toBeGreaterThanOrEqual(120 + 9 * 4 - early(10));
    expect(streamed.modelTimeMs).toBeLessThanOrEqual(streamed.finishedAt! - streamed.arrivedAt);
    expect(whole.modelTimeMs).toBeGreaterThanOrEqual(120 + 10 * 4 - early(1));
    expect(whole.firstTokenAt! - whole.arrivedAt).toBeGreaterThanOrEqual(whole.modelTimeMs);
  });
});

async function until(condition: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 200 && !condition(); attempt += 1) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(condition()).toBe(true);
}
