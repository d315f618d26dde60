import OpenAI from 'openai';
import type {
  ChatCompletionChunk,
  ChatCompletionContentPart,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import { describeAttachment } from '../../modules/attachments/attachments';
import {
  ModelAttachment,
  ModelContextExceeded,
  ModelMessage,
  ModelProvider,
  ModelProviderError,
  ModelReply,
  ModelRequest,
  ModelToolDefinition,
} from '../agent';

export interface OpenAIProviderOptions {
  /** Any OpenAI-compatible endpoint, ending in `/v1`; the official API when omitted. */
  baseURL?: string;
  apiKey: string;
  model: string;
  /** For the whole call, retries included; ten minutes when omitted, as in the SDK. */
  timeoutMs?: number;
  maxRetries?: number;
}

const DEFAULT_TIMEOUT_MS = 10 * 60 * 1000;

/** Error bodies can be whole HTML pages from a proxy: a failed run shows only their start. */
const MAX_DETAIL_LENGTH = 300;

/** A model behind an OpenAI-compatible chat-completions endpoint, its answer streamed. */
export class OpenAIProvider implements ModelProvider {
  readonly name = 'openai';
  readonly readsAttachments = true;
  private readonly client: OpenAI;
  private readonly model: string;
  private readonly timeoutMs: number;
  /** OpenAI itself takes the answer's cap as `max_completion_tokens`; compatible servers know `max_tokens`. */
  private readonly capParameter: 'max_completion_tokens' | 'max_tokens';

  constructor(options: OpenAIProviderOptions) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.client = new OpenAI({
      baseURL: options.baseURL,
      apiKey: options.apiKey,
      maxRetries: options.maxRetries,
      timeout: this.timeoutMs,
    });
    this.model = options.model;
    this.capParameter = !options.baseURL || new URL(options.baseURL).hostname.endsWith('openai.com') ? 'max_completion_tokens' : 'max_tokens';
  }

  async complete(request: ModelRequest): Promise<ModelReply> {
    // The deadline is ours, not only the SDK's: the SDK tells a timeout from a refused connection
    // with `instanceof`, which fails when fetch's errors come from another realm (a test runner's VM context).
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), this.timeoutMs);
    const signal = request.signal ? AbortSignal.any([request.signal, deadline.signal]) : deadline.signal;
    try {
      const stream = await this.client.chat.completions.create(
        {
          model: this.model,
          messages: request.messages.map(toChatMessage),
          // OpenAI rejects an empty `tools` list, and `tool_choice` without tools.
          ...(request.tools.length > 0 && { tools: request.tools.map(toChatTool), tool_choice: toolChoice(request.requiredTool) }),
          ...(request.maxOutputTokens !== undefined && { [this.capParameter]: request.maxOutputTokens }),
          stream: true,
        },
        { signal },
      );
      const reply = await this.assemble(stream, request);
      // The SDK ends a stream quietly when it is aborted: a cut-off answer must not pass for a whole one.
      signal.throwIfAborted();
      return reply;
    } catch (error) {
      if (error instanceof ModelProviderError) throw error;
      throw this.describeFailure(error, request.signal, deadline.signal);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The reply from its stream of chunks: text handed on as it arrives, tool calls put together
   * from their pieces (the first piece of a call has its id and name, later ones more arguments),
   * which are handed on too.
   */
  private async assemble(stream: AsyncIterable<ChatCompletionChunk>, { onTextDelta, onArgumentsDelta }: Pick<ModelRequest, 'onTextDelta' | 'onArgumentsDelta'>): Promise<ModelReply> {
    let text: string | null = null;
    let chose = false;
    const calls = new Map<number, { id: string; type: string; name: string; arguments: string }>();
    for await (const chunk of stream) {
      const choice = chunk.choices?.[0];
      if (!choice) continue;
      chose = true;
      const delta = choice.delta ?? {};
      if (delta.content) {
        text = (text ?? '') + delta.content;
        onTextDelta?.(delta.content);
      }
      for (const piece of delta.tool_calls ?? []) {
        const call = calls.get(piece.index) ?? { id: '', type: 'function', name: '', arguments: '' };
        if (piece.id) call.id = piece.id;
        if (piece.type) call.type = piece.type;
        if (piece.function?.name) call.name += piece.function.name;
        calls.set(piece.index, call);
        if (piece.function?.arguments) {
          call.arguments += piece.function.arguments;
          onArgumentsDelta?.({ index: piece.index, name: call.name }, piece.function.arguments);
        }
      }
    }
    // Compatible servers are not all strict: a stream without choices is a failure, not an empty answer.
    if (!chose) throw new ModelProviderError(`Model provider at ${this.client.baseURL} answered without any choices`);
    // Only function tools are offered, so any other kind of call is not one the runtime can run.
    const toolCalls = [...calls.entries()]
      .sort(([a], [b]) => a - b)
      .flatMap(([, call]) => (call.type === 'function' ? [{ id: call.id, name: call.name, arguments: call.arguments }] : []));
    return { text, toolCalls };
  }

  /** Turns whatever the SDK threw into one line a person can act on. */
  private describeFailure(error: unknown, callerSignal: AbortSignal | undefined, deadline: AbortSignal): ModelProviderError {
    const baseURL = this.client.baseURL;
    if (callerSignal?.aborted) {
      return new ModelProviderError(`Model request to ${baseURL} was aborted before the model answered`);
    }
    if (deadline.aborted || error instanceof OpenAI.APIConnectionTimeoutError) {
      return new ModelProviderError(`Model provider at ${baseURL} did not answer within ${this.timeoutMs} ms`);
    }
    if (error instanceof OpenAI.APIConnectionError) {
      return new ModelProviderError(`Model provider unreachable at ${baseURL}: ${innermostReason(error)}`);
    }
    if (error instanceof OpenAI.APIError) {
      const message = `Model provider answered ${error.status}: ${serverMessage(error)}`;
      const refusal = contextRefusal(error);
      return refusal ? new ModelContextExceeded(message, refusal.limit) : new ModelProviderError(message);
    }
    // A 200 whose body is not JSON lands here, as a parse error.
    const reason = error instanceof Error ? error.message : String(error);
    return new ModelProviderError(`Model provider at ${baseURL} sent an unreadable answer: ${truncate(reason)}`);
  }
}

/**
 * A user message's content parts: its text, then each attachment, an image as an image part
 * (a data URL), a text file as text, any other file as a line naming it.
 */
function userContent(content: string, attachments: ModelAttachment[]): ChatCompletionContentPart[] {
  return [
    { type: 'text', text: content },
    ...attachments.map((attachment): ChatCompletionContentPart => {
      if (attachment.imageBase64 !== undefined) {
        return { type: 'image_url', image_url: { url: `data:${attachment.mediaType.split(';', 1)[0]};base64,${attachment.imageBase64}` } };
      }
      if (attachment.text !== undefined) {
        return { type: 'text', text: `<attachment name="${attachment.name}" type="${attachment.mediaType}">\n${attachment.text}\n</attachment>` };
      }
      return { type: 'text', text: `[attached: ${describeAttachment(attachment)}; read_attachment describes it]` };
    }),
  ];
}

function toChatMessage(message: ModelMessage): ChatCompletionMessageParam {
  switch (message.role) {
    case 'system':
      return { role: message.role, content: message.content };
    case 'user':
      return message.attachments?.length
        ? { role: 'user', content: userContent(message.content, message.attachments) }
        : { role: 'user', content: message.content };
    case 'assistant':
      return {
        role: 'assistant',
        content: message.content,
        // OpenAI rejects an empty `tool_calls` list.
        ...(message.toolCalls?.length && {
          tool_calls: message.toolCalls.map((call) => ({
            id: call.id,
            type: 'function' as const,
            function: { name: call.name, arguments: call.arguments },
          })),
        }),
      };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
  }
}

function toolChoice(required: string | undefined) {
  return required ? { type: 'function' as const, function: { name: required } } : ('auto' as const);
}

/**
 * Whether an error is a refusal for the context length, and the limit it states. The wordings,
 * as each server writes them:
 * - OpenAI: code `context_length_exceeded`, "This model's maximum context length is N tokens. However, …";
 * - vLLM: "… However, the model's context length is only N tokens, resulting in a maximum input
 *   length of …" (older versions: OpenAI's wording);
 * - llama.cpp's server: type `exceed_context_size_error` with `n_ctx`, "request (P tokens) exceeds
 *   the available context size (N tokens), try increasing it" (older: "the request exceeds the
 *   available context size, try increasing it");
 * - Ollama (when it does not truncate): "the prompt is longer than the context length currently
 *   available to the model; …", or "input length exceeds the context length".
 */
export function contextRefusal(error: InstanceType<typeof OpenAI.APIError>): { limit: number | null } | null {
  if (error.status !== 400 && error.status !== 413) return null;
  const body = (error.error ?? {}) as { message?: unknown; code?: unknown; type?: unknown; n_ctx?: unknown };
  const text = typeof body.message === 'string' ? body.message : error.message;
  const refused =
    body.code === 'context_length_exceeded' ||
    body.type === 'exceed_context_size_error' ||
    /maximum context length|context length is only|exceeds the available context size|longer than the context length|exceeds the context length/i.test(text);
  if (!refused) return null;
  if (typeof body.n_ctx === 'number') return { limit: body.n_ctx };
  const stated = /maximum context length is (\d+)|context length is only (\d+)|available context size \((\d+) tokens\)/i.exec(text);
  const limit = stated ? Number(stated[1] ?? stated[2] ?? stated[3]) : null;
  return { limit: limit && Number.isFinite(limit) ? limit : null };
}

function toChatTool(tool: ModelToolDefinition): ChatCompletionTool {
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } };
}

/** The server's own words: the `error.message` of its JSON body, else the body text the SDK kept. */
function serverMessage(error: InstanceType<typeof OpenAI.APIError>): string {
  const body = error.error as { message?: unknown } | undefined;
  if (typeof body?.message === 'string' && body.message) return truncate(body.message);
  // The SDK prefixes the status, which the caller's message already states.
  return truncate(error.message.replace(/^\d{3} /, ''));
}

interface ErrorLike {
  message?: unknown;
  code?: unknown;
  cause?: unknown;
}

/**
 * The SDK says only "Connection error."; the reason (refused, DNS, reset) is at the end of its cause
 * chain. Walked by shape, since those errors may come from another realm; bounded against cycles.
 */
function innermostReason(error: Error): string {
  let innermost: ErrorLike = error;
  for (let depth = 0; depth < 8 && typeof innermost.cause === 'object' && innermost.cause !== null; depth++) {
    innermost = innermost.cause as ErrorLike;
  }
  if (typeof innermost.message === 'string' && innermost.message) return truncate(innermost.message);
  // An AggregateError from trying several addresses has an empty message but a code.
  if (typeof innermost.code === 'string') return innermost.code;
  return error.message;
}

function truncate(text: string): string {
  return text.length > MAX_DETAIL_LENGTH ? `${text.slice(0, MAX_DETAIL_LENGTH)}…` : text;
}
