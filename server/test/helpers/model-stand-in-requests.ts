/** Shared by the model stand-in's own tests: stand-ins opened and closed per test, and requests to send them. */
import { randomUUID } from 'node:crypto';
import { GraphQLSchema } from 'graphql';
import { countChatCompletionTokens } from 'gpt-tokenizer/model/gpt-4o';
import OpenAI from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { continueSessionTool } from '../../src/modules/continuation/continue-session.tool';
import { createAppPubSub } from '../../src/api/pubsub';
import { buildAppSchema } from '../../src/api/schema';
import { RUNTIME_TOOLS } from '../../src/agent/tools';
import { ModelStandIn, ModelStandInOptions, startModelStandIn } from './model-stand-in';

/** The runtime's tools as a chat completion request carries them. */
export const runtimeTools: ChatCompletionTool[] = RUNTIME_TOOLS.map((tool) => ({ type: 'function', function: tool }));
const opened: ModelStandIn[] = [];

/** The schema's continue_session tool, built once per test file. */
export async function continueSessionOf(): Promise<{ schema: GraphQLSchema; continueSession: ChatCompletionTool }> {
  const schema = await buildAppSchema(createAppPubSub());
  return { schema, continueSession: continueSessionTool(schema) as unknown as ChatCompletionTool };
}

/** Closes the stand-ins a test opened; each test file calls it in its afterEach. */
export async function closeStandIns(): Promise<void> {
  await Promise.all(opened.splice(0).map((standIn) => standIn.close()));
}

export async function standIn(options: Partial<ModelStandInOptions> = {}): Promise<{ model: ModelStandIn; client: OpenAI }> {
  const model = await startModelStandIn({ contextTokens: 128_000, ...options });
  opened.push(model);
  return { model, client: new OpenAI({ baseURL: model.baseURL, apiKey: 'sk-test', maxRetries: 0 }) };
}

/** What the SDK throws for `call`. */
export async function rejection(call: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  try {
    await call;
  } catch (error) {
    if (error instanceof OpenAI.APIError) return error;
    throw error;
  }
  throw new Error('The call succeeded');
}

/** The SSE body of a streamed request, as data lines (`[DONE]` kept as text). */
export async function rawStream(model: ModelStandIn, body: Record<string, unknown>): Promise<(Record<string, any> | string)[]> {
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
export function conversation(turns: number): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = [{ role: 'system', content: 'You are the assistant of "Kitchen renovation". Answer briefly.' }];
  for (let turn = 0; turn < turns; turn += 1) {
    messages.push({ role: 'user', content: `Step ${turn + 1}: the tiles (€${12 + turn}/m², grès cérame) need grout; what about the joints near the sink?` });
    messages.push({ role: 'assistant', content: `For step ${turn + 1}, seal the joints first — epoxy grout resists water best.` });
  }
  messages.push({ role: 'user', name: 'dana', content: 'And what should I do next?' });
  return messages;
}

/** gpt-tokenizer's estimate of the same request (its function format is the tools' `function` part). */
export function gptTokenizerCount(messages: ChatCompletionMessageParam[], tools: ChatCompletionTool[] = []): number {
  return countChatCompletionTokens!({
    messages: messages as { role: string; content: string }[],
    ...(tools.length > 0 && { functions: tools.map((tool) => (tool as unknown as { function: never }).function) }),
  });
}

export const CITABLE_SESSION: string = randomUUID();
export const CITABLE_FIRST: string = randomUUID();
export const CITABLE_LAST: string = randomUUID();

/** A turn whose instructions advise continuing and whose last message shows events to cite. */
export function pressuredTurn(): ChatCompletionMessageParam[] {
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

