import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import type { ChatCompletionCreateParams, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { Conversation, readConversation, replyText } from './model-stand-in/conversation';
import { DraftFailure, draftValue, spoiledDraft } from './model-stand-in/drafts';
import { countPrompt, PromptCount } from './model-stand-in/prompt-tokens';
import {
  ContextProvider,
  contextRefusal,
  Fit,
  ollamaContextRefusal,
  ollamaTruncation,
  openaiCompletionCapRefusal,
  ProviderRefusal,
} from './model-stand-in/provider-errors';
import { functionTools, openaiError, requestProblem } from './model-stand-in/request-checks';
import { completionBody, decodeAll, markAborted, now, readBody, sendJson, sendModels, streamAnswer, toolCallId } from './model-stand-in/wire';

export type { ContextProvider } from './model-stand-in/provider-errors';
export type { DraftFailure } from './model-stand-in/drafts';
/** Tokens of a text as the stand-in counts them, for tests that size their messages. */
export { countPrompt, textTokens as tokensOf, toolNamespace } from './model-stand-in/prompt-tokens';

/**
 * A stand-in for a real model behind an OpenAI-compatible `POST /v1/chat/completions`, over real
 * HTTP, that behaves as real models do rather than as a test scripts it:
 *
 * - it counts every prompt as a provider does (o200k_base, message overhead, tool definitions:
 *   see `prompt-tokens.ts`) against the model's own context length, which is independent of what
 *   the server under test believes, and refuses or truncates what does not fit exactly as the
 *   chosen provider does (`provider-errors.ts`);
 * - it never calls a tool unless `tool_choice` forces it (`required`, a named function, or
 *   `allowed_tools` in `required` mode), whatever the instructions advise: otherwise it answers in
 *   text of about `replyTokens` tokens about the latest user message. Forced, it fills the tool's
 *   JSON schema from the conversation (`drafts.ts`); `response_format: json_schema` likewise;
 * - it streams as OpenAI does: a role chunk, the text a token per chunk, a tool call as its id
 *   and name and then its arguments in pieces, the finish reason, `usage` in a last chunk of no
 *   choices when `stream_options.include_usage`, then `data: [DONE]`;
 * - it takes the time a model takes (`timing`), recorded per request so a benchmark can
 *   subtract it.
 */
export interface ModelStandInOptions {
  /** The model's real context length, in tokens. */
  contextTokens: number;
  /** Whose behaviour at the context length to reproduce; OpenAI's by default. */
  provider?: ContextProvider;
  /** Ollama: whether a prompt too long even after dropping messages is cut (its default) or refused. */
  ollamaContextShift?: boolean;
  /** OpenAI: the model's own output limit; a larger `max_tokens` is refused. */
  maxCompletionTokens?: number;
  /** About how many tokens a text answer has (60 by default); an answer stops earlier at `max_tokens` or the context's end. */
  replyTokens?: number;
  /** Simulated model time: before the first token, and between tokens. */
  timing?: { firstTokenMs?: number; perTokenMs?: number };
  /** When set, requests must carry it as a bearer token. */
  apiKey?: string;
}

export type StandInOutcome =
  /** Answered 200, the whole prompt read. */
  | 'answered'
  /** Answered 200 after dropping or cutting part of the prompt without saying so (Ollama). */
  | 'truncated'
  /** Refused for the context length, with the provider's error. */
  | 'refused'
  /** Refused as malformed (bad JSON, unpaired tool messages, …). */
  | 'invalid'
  /** Failed on purpose (`failNext`). */
  | 'failed'
  /** Held open on purpose (`hangNext`), still unanswered. */
  | 'hung'
  /** The client went away before the answer was whole. */
  | 'aborted';

/** One request as the stand-in saw it, in arrival order. Times are epoch milliseconds, sub-millisecond. */
export interface StandInRequest {
  body: ChatCompletionCreateParams;
  /** The prompt as the provider counts it, tool definitions included. */
  prompt: PromptCount;
  /** `prompt.total`: what is compared with the context length. */
  promptTokens: number;
  /** `max_completion_tokens` or `max_tokens`, null when neither was sent. */
  completionCap: number | null;
  /** The model's context length when the request arrived. */
  contextTokens: number;
  /** Whether prompt and cap together were more than the context length. */
  overContext: boolean;
  /** What the model read: `promptTokens`, or less after Ollama's truncation. */
  readTokens: number;
  /** Messages Ollama dropped from the front. */
  droppedMessages: number;
  /** The tool call or schema the request forced, if any. */
  forced: { kind: 'tool'; name: string } | { kind: 'json_schema'; name: string } | null;
  outcome: StandInOutcome;
  status: number;
  /** The error body, for any answer other than 200. */
  error: unknown;
  text: string | null;
  toolCall: { id: string; name: string; arguments: string } | null;
  finishReason: 'stop' | 'length' | 'tool_calls' | null;
  completionTokens: number;
  arrivedAt: number;
  /** When the first token (text or tool call) was written. */
  firstTokenAt: number | null;
  finishedAt: number | null;
  /** The delay the stand-in added on purpose while answering: what a benchmark subtracts. */
  modelTimeMs: number;
  /** The part of it before the first token. */
  modelFirstTokenMs: number;
}

export interface ModelStandIn {
  /** Ends in `/v1`, as OpenAI clients expect. */
  baseURL: string;
  requests: StandInRequest[];
  /** Changes options from the next request on (a model swapped, a limit lowered). */
  configure(changes: Partial<ModelStandInOptions>): void;
  /** The next `count` forced calls (tool_choice or json_schema) are drafted wrong in this way. */
  invalidDrafts(count: number, failure: DraftFailure): void;
  /** The next `count` requests fail with `status` (500 by default) and OpenAI's body for it. */
  failNext(count: number, failure?: { status?: number; message?: string }): void;
  /** The next `count` requests are held unanswered, until `releaseHung`, the client gives up, or `close`. */
  hangNext(count: number): void;
  /** Answers the requests held so far as if they had just arrived. */
  releaseHung(): void;
  /** The largest prompt any request carried. */
  largestPrompt(): number;
  /** Stops listening and drops every connection. */
  close(): Promise<void>;
}

const DEFAULT_REPLY_TOKENS = 60;

/** What the stand-in records of a request as it arrives. */
function newRecord(body: ChatCompletionCreateParams, arrivedAt: number, valid: boolean, contextTokens: number): StandInRequest {
  const prompt = valid ? countPrompt(body) : { total: 0, tools: 0, responseFormat: 0, perMessage: [] };
  const completionCap = body.max_completion_tokens ?? body.max_tokens ?? null;
  return {
    body,
    prompt,
    promptTokens: prompt.total,
    completionCap,
    contextTokens,
    overContext: prompt.total + (completionCap ?? 0) > contextTokens,
    readTokens: prompt.total,
    droppedMessages: 0,
    forced: forcedOutput(body),
    outcome: 'answered',
    status: 200,
    error: null,
    text: null,
    toolCall: null,
    finishReason: null,
    completionTokens: 0,
    arrivedAt,
    firstTokenAt: null,
    finishedAt: null,
    modelTimeMs: 0,
    modelFirstTokenMs: 0,
  };
}

/** Answers a request with a provider's refusal, recorded as such. */
function refuse(response: ServerResponse, record: StandInRequest, outcome: StandInOutcome, refusal: ProviderRefusal): void {
  record.outcome = outcome;
  record.status = refusal.status;
  record.error = refusal.body;
  record.finishedAt = now();
  sendJson(response, refusal.status, refusal.body);
}

/** What the model writes: the forced call's arguments, the schema's JSON, or a text answer. */
function modelOutput(
  body: ChatCompletionCreateParams,
  record: StandInRequest,
  conversation: Conversation,
  draftText: (schema: Record<string, unknown>, conversation: Conversation) => string,
  replyTokens: number,
) {
  const forced = record.forced;
  if (forced?.kind === 'tool') {
    const tool = functionTools(body.tools).find((candidate) => candidate.function.name === forced.name)!;
    const schema = (tool.function.parameters ?? { type: 'object', properties: {} }) as Record<string, unknown>;
    const named = typeof body.tool_choice === 'object' && body.tool_choice?.type === 'function';
    return { text: draftText(schema, conversation), toolName: forced.name, namedChoice: named };
  }
  if (forced?.kind === 'json_schema' && body.response_format?.type === 'json_schema') {
    const schema = (body.response_format.json_schema.schema ?? { type: 'object', properties: {} }) as Record<string, unknown>;
    return { text: draftText(schema, conversation), toolName: null, namedChoice: false };
  }
  if (body.response_format?.type === 'json_object') {
    return { text: JSON.stringify({ answer: replyText(conversation.lastUserText, replyTokens) }), toolName: null, namedChoice: false };
  }
  return { text: replyText(conversation.lastUserText, replyTokens), toolName: null, namedChoice: false };
}

/** Answers a valid request as the configured provider would: refused, cut at its cap, streamed or whole. */
async function answer(
  response: ServerResponse,
  record: StandInRequest,
  options: ModelStandInOptions,
  draftText: (schema: Record<string, unknown>, conversation: Conversation) => string,
): Promise<void> {
  const provider = options.provider ?? 'openai';
  const { body } = record;
  const fit: Fit = {
    prompt: record.promptTokens,
    completion: record.completionCap,
    completionParam: body.max_completion_tokens != null ? 'max_completion_tokens' : 'max_tokens',
    limit: options.contextTokens,
  };
  const refusal =
    (provider === 'openai' && options.maxCompletionTokens !== undefined ? openaiCompletionCapRefusal(fit, options.maxCompletionTokens) : null) ??
    contextRefusal(provider, fit);
  if (refusal) return refuse(response, record, 'refused', refusal);
  let messages = body.messages;
  if (provider === 'ollama' && record.promptTokens > options.contextTokens) {
    const kept = ollamaKept(body, record.prompt, options.contextTokens);
    messages = kept.messages;
    record.droppedMessages = body.messages.length - kept.messages.length;
    record.readTokens = kept.tokens;
    if (kept.tokens > options.contextTokens) {
      if (options.ollamaContextShift === false) return refuse(response, record, 'refused', ollamaContextRefusal());
      // The prompt's first num_keep tokens and its end, as much as the context holds.
      record.readTokens = options.contextTokens - 1;
    }
    record.outcome = 'truncated';
  }
  const conversation = readConversation(messages);
  // Generation stops at the cap and at the context's end (Ollama shifts its context instead).
  const room = provider === 'ollama' && options.ollamaContextShift !== false ? Infinity : options.contextTokens - record.readTokens;
  const budget = Math.max(0, Math.min(record.completionCap ?? Infinity, room));
  const output = modelOutput(body, record, conversation, draftText, options.replyTokens ?? DEFAULT_REPLY_TOKENS);
  const tokens = encode(output.text, { disallowedSpecial: new Set() });
  const cut = tokens.length > budget;
  const produced = cut ? tokens.slice(0, budget) : tokens;
  const finishReason = cut ? 'length' : output.toolName ? (output.namedChoice ? 'stop' : 'tool_calls') : 'stop';
  record.finishReason = finishReason;
  record.completionTokens = produced.length;
  const text = decodeAll(produced);
  if (output.toolName) record.toolCall = { id: toolCallId(), name: output.toolName, arguments: text };
  else record.text = text;
  const timing = options.timing ?? {};
  const stream = body.stream === true;
  if (stream) {
    await streamAnswer(response, record, produced, timing, provider);
  } else {
    const delay = (timing.firstTokenMs ?? 0) + (timing.perTokenMs ?? 0) * produced.length;
    const from = now();
    if (delay > 0) await sleep(delay);
    record.modelTimeMs = now() - from;
    record.modelFirstTokenMs = record.modelTimeMs;
    if (response.destroyed) return markAborted(record);
    record.firstTokenAt = now();
    sendJson(response, 200, completionBody(record, provider));
    record.finishedAt = now();
  }
}

export async function startModelStandIn(initial: ModelStandInOptions): Promise<ModelStandIn> {
  let options: ModelStandInOptions = { ...initial };
  const requests: StandInRequest[] = [];
  const draftFailures: DraftFailure[] = [];
  const failures: { status: number; message: string }[] = [];
  let hangs = 0;
  const hung: { record: StandInRequest; response: ServerResponse }[] = [];

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const arrivedAt = now();
    const path = (request.url ?? '').split('?')[0];
    if (request.method === 'GET' && path === '/v1/models') return sendModels(response);
    if (request.method !== 'POST' || path !== '/v1/chat/completions') {
      return sendJson(response, 404, openaiError(`Invalid URL (${request.method} ${path})`, 'invalid_request_error', null, null));
    }
    let body: ChatCompletionCreateParams;
    try {
      body = JSON.parse(await readBody(request));
    } catch {
      return sendJson(response, 400, openaiError('We could not parse the JSON body of your request.', 'invalid_request_error', null, null));
    }
    if (options.apiKey !== undefined && request.headers.authorization !== `Bearer ${options.apiKey}`) {
      return sendJson(response, 401, openaiError('Incorrect API key provided.', 'invalid_request_error', null, 'invalid_api_key'));
    }
    const problem = requestProblem(body, options.provider ?? 'openai');
    const record = newRecord(body, arrivedAt, problem === null, options.contextTokens);
    requests.push(record);
    if (problem) return refuse(response, record, 'invalid', { status: 400, body: problem });
    const failure = failures.shift();
    if (failure) {
      return refuse(response, record, 'failed', { status: failure.status, body: openaiError(failure.message, 'server_error', null, null) });
    }
    if (hangs > 0) {
      hangs -= 1;
      record.outcome = 'hung';
      hung.push({ record, response });
      response.on('close', () => {
        const index = hung.findIndex((entry) => entry.response === response);
        if (index >= 0) hung.splice(index, 1);
        if (record.outcome === 'hung') record.outcome = 'aborted';
      });
      return;
    }
    await answer(response, record, options, draftText);
  }

  function draftText(schema: Record<string, unknown>, conversation: Conversation): string {
    const draft = draftValue(schema, conversation);
    const failure = draftFailures.shift();
    return failure ? spoiledDraft(draft, failure) : JSON.stringify(draft);
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      // A fault here is a bug in the stand-in: say so rather than leave the client waiting.
      if (!response.headersSent) sendJson(response, 500, openaiError(`Stand-in failed: ${(error as Error).message}`, 'server_error', null, null));
      else response.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    configure(changes) {
      options = { ...options, ...changes };
    },
    invalidDrafts(count, failure) {
      for (let index = 0; index < count; index += 1) draftFailures.push(failure);
    },
    failNext(count, failure = {}) {
      const status = failure.status ?? 500;
      const message = failure.message ?? 'The server had an error while processing your request. Sorry about that!';
      for (let index = 0; index < count; index += 1) failures.push({ status, message });
    },
    hangNext(count) {
      hangs += count;
    },
    releaseHung() {
      for (const { record, response } of hung.splice(0)) {
        record.outcome = 'answered';
        void answer(response, record, options, draftText);
      }
    },
    largestPrompt() {
      return requests.reduce((largest, request) => Math.max(largest, request.promptTokens), 0);
    },
    close() {
      hung.splice(0);
      return new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Clients keep connections alive, and held requests never end on their own.
        server.closeAllConnections();
      });
    },
  };
}

/** The output `tool_choice` or `response_format` forces; null when the model may answer as it likes. */
function forcedOutput(body: ChatCompletionCreateParams): StandInRequest['forced'] {
  const tools = functionTools(body.tools);
  const choice = body.tool_choice;
  if (tools.length > 0 && choice !== undefined && choice !== 'none' && choice !== 'auto') {
    if (choice === 'required') return { kind: 'tool', name: chosenTool(tools, body.messages) };
    if (choice.type === 'function') return { kind: 'tool', name: choice.function.name };
    if (choice.type === 'allowed_tools' && choice.allowed_tools.mode === 'required') {
      const allowed = new Set(choice.allowed_tools.tools.map((tool) => (tool as { function?: { name?: string } }).function?.name));
      const candidates = tools.filter((tool) => allowed.has(tool.function.name));
      if (candidates.length > 0) return { kind: 'tool', name: chosenTool(candidates, body.messages) };
    }
  }
  if (body.response_format?.type === 'json_schema') return { kind: 'json_schema', name: body.response_format.json_schema.name };
  return null;
}

/** Under `required`, the tool the latest message names, else the first: a model picks the one asked for. */
function chosenTool(tools: ReturnType<typeof functionTools>, messages: ChatCompletionMessageParam[]): string {
  const latest = readConversation(messages.slice(-1)).allText;
  return tools.find((tool) => latest.includes(tool.function.name))?.function.name ?? tools[0].function.name;
}

/** Ollama's truncation: drop the oldest messages (keeping system ones) until the prompt fits. */
function ollamaKept(body: ChatCompletionCreateParams, prompt: PromptCount, limit: number): { messages: ChatCompletionMessageParam[]; tokens: number } {
  // The tools and the reply's priming stay whatever is dropped.
  const fixed = prompt.total - prompt.perMessage.reduce((total, tokens) => total + tokens, 0);
  const kept = (first: number) => body.messages.flatMap((message, index) => (index >= first || isInstruction(message) ? [index] : []));
  const tokensFrom = (first: number) => kept(first).reduce((total, index) => total + prompt.perMessage[index], fixed);
  const first = ollamaTruncation(body.messages.length, (candidate) => tokensFrom(candidate) <= limit);
  return { messages: kept(first).map((index) => body.messages[index]), tokens: tokensFrom(first) };
}

function isInstruction(message: ChatCompletionMessageParam): boolean {
  return message.role === 'system' || message.role === 'developer';
}

