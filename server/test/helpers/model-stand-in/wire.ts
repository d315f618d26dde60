/** The wire format of OpenAI's chat completions as the stand-in writes it: bodies, chunks, ids. */
import { randomBytes } from 'node:crypto';
import { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { decodeGenerator } from 'gpt-tokenizer/encoding/o200k_base';
import type { ModelStandInOptions, StandInRequest } from '../model-stand-in';
import type { ContextProvider } from './provider-errors';

export const now = () => performance.timeOrigin + performance.now();

export function markAborted(record: StandInRequest): void {
  record.outcome = 'aborted';
  record.finishedAt = now();
}

export function randomText(length: number): string {
  return randomBytes(length).toString('base64url').slice(0, length);
}

export function toolCallId(): string {
  return `call_${randomText(24)}`;
}

export function decodeAll(tokens: number[]): string {
  return [...decodeGenerator(tokens)].join('');
}

const SYSTEM_FINGERPRINT = `fp_${randomBytes(5).toString('hex')}`;

function usage(record: StandInRequest) {
  return {
    prompt_tokens: record.readTokens,
    completion_tokens: record.completionTokens,
    total_tokens: record.readTokens + record.completionTokens,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}

/** The fields OpenAI adds to every completion and chunk; compatible servers leave them out. */
function openaiExtras(provider: ContextProvider) {
  return provider === 'openai' ? { service_tier: 'default', system_fingerprint: SYSTEM_FINGERPRINT } : {};
}

export function completionBody(record: StandInRequest, provider: ContextProvider) {
  const call = record.toolCall;
  return {
    id: completionId(record),
    object: 'chat.completion',
    created: Math.floor(record.arrivedAt / 1000),
    model: record.body.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: call ? null : record.text,
          refusal: null,
          annotations: [],
          ...(call && { tool_calls: [{ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }] }),
        },
        logprobs: null,
        finish_reason: record.finishReason,
      },
    ],
    usage: usage(record),
    ...openaiExtras(provider),
  };
}

const completionIds = new WeakMap<StandInRequest, string>();

function completionId(record: StandInRequest): string {
  let id = completionIds.get(record);
  if (!id) completionIds.set(record, (id = `chatcmpl-${randomText(29)}`));
  return id;
}

/**
 * The answer as server-sent events of chat.completion.chunk objects, paced by `timing`; stops
 * writing when the client goes away.
 */
export async function streamAnswer(
  response: ServerResponse,
  record: StandInRequest,
  tokens: number[],
  timing: NonNullable<ModelStandInOptions['timing']>,
  provider: ContextProvider,
): Promise<void> {
  const { body } = record;
  const includeUsage = body.stream_options?.include_usage === true;
  // OpenAI pads chunks with random characters unless asked not to.
  const obfuscate = provider === 'openai' && body.stream_options?.include_obfuscation !== false;
  const base = { id: completionId(record), object: 'chat.completion.chunk', created: Math.floor(record.arrivedAt / 1000), model: body.model, ...openaiExtras(provider) };
  const write = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    response.write(
      `data: ${JSON.stringify({ ...base, choices, ...(includeUsage && { usage: null }), ...extra, ...(obfuscate && { obfuscation: randomText(4 + Math.floor(Math.random() * 12)) }) })}\n\n`,
    );
  const delta = (content: Record<string, unknown>, finishReason: string | null = null) => write([{ index: 0, delta: content, logprobs: null, finish_reason: finishReason }]);

  const firstTokenMs = timing.firstTokenMs ?? 0;
  const perTokenMs = timing.perTokenMs ?? 0;
  // The time actually spent waiting, which timers stretch beyond what was asked.
  let modelTime = 0;
  const wait = async (ms: number) => {
    const from = now();
    await sleep(ms);
    modelTime += now() - from;
  };
  if (firstTokenMs > 0) await wait(firstTokenMs);
  record.modelFirstTokenMs = modelTime;
  if (response.destroyed) return markAborted(record);
  response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const call = record.toolCall;
  if (call) delta({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }], refusal: null });
  else delta({ role: 'assistant', content: '', refusal: null });
  record.firstTokenAt = now();
  let first = true;
  for (const piece of decodeGenerator(tokens)) {
    if (!first && perTokenMs > 0) {
      await wait(perTokenMs);
    }
    first = false;
    if (response.destroyed) return markAborted(record);
    if (call) delta({ tool_calls: [{ index: 0, function: { arguments: piece } }] });
    else delta({ content: piece });
  }
  delta({}, record.finishReason);
  if (includeUsage) write([], { usage: usage(record) });
  response.end('data: [DONE]\n\n');
  record.modelTimeMs = modelTime;
  record.finishedAt = now();
}

export function sendModels(response: ServerResponse): void {
  sendJson(response, 200, { object: 'list', data: [{ id: 'stand-in', object: 'model', created: 0, owned_by: 'stand-in' }] });
}

export function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

export function sendJson(response: ServerResponse, status: number, payload: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json', 'x-request-id': `req_${randomBytes(16).toString('hex')}` });
  response.end(JSON.stringify(payload));
}
