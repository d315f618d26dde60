/**
 * What OpenAI-compatible servers answer when a prompt does not fit the model's context, status and
 * body as each writes them (sources in the comments). `prompt` is the prompt's tokens, `completion`
 * the `max_tokens`/`max_completion_tokens` asked for (null when absent), `limit` the context length.
 */
export type ContextProvider = 'openai' | 'vllm' | 'llama.cpp' | 'ollama';

export interface ProviderRefusal {
  status: number;
  body: unknown;
}

export interface Fit {
  prompt: number;
  completion: number | null;
  /** Which of the two request fields carried `completion`. */
  completionParam: 'max_tokens' | 'max_completion_tokens';
  limit: number;
}

/**
 * Whether the provider refuses the request before generating, and with what. Ollama never refuses
 * here: it truncates instead (see `ollamaTruncation`), and refuses only what truncation cannot fix.
 */
export function contextRefusal(provider: ContextProvider, fit: Fit): ProviderRefusal | null {
  switch (provider) {
    case 'openai':
      return openaiRefusal(fit);
    case 'vllm':
      return vllmRefusal(fit);
    case 'llama.cpp':
      return llamaCppRefusal(fit);
    case 'ollama':
      return null;
  }
}

/**
 * OpenAI: 400, `context_length_exceeded`. Without a completion cap the prompt alone is checked
 * ("your messages resulted in"); with one, prompt and cap together ("you requested"). Bodies as
 * quoted in chathub-dev/chathub#126 and ChatGPTNextWeb/NextChat#3195; the tool definitions are
 * part of "the messages" there.
 */
function openaiRefusal({ prompt, completion, limit }: Fit): ProviderRefusal | null {
  if (completion === null) {
    if (prompt <= limit) return null;
    return openaiContextError(
      `This model's maximum context length is ${limit} tokens. However, your messages resulted in ${prompt} tokens. Please reduce the length of the messages.`,
    );
  }
  if (prompt + completion <= limit) return null;
  return openaiContextError(
    `This model's maximum context length is ${limit} tokens. However, you requested ${prompt + completion} tokens (${prompt} in the messages, ${completion} in the completion). Please reduce the length of the messages or completion.`,
  );
}

function openaiContextError(message: string): ProviderRefusal {
  return { status: 400, body: { error: { message, type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' } } };
}

/** OpenAI's answer to a cap above the model's own output limit (ChatGPTNextWeb/NextChat#3195). */
export function openaiCompletionCapRefusal(fit: Fit, maxCompletionTokens: number): ProviderRefusal | null {
  if (fit.completion === null || fit.completion <= maxCompletionTokens) return null;
  const message = `${fit.completionParam} is too large: ${fit.completion}. This model supports at most ${maxCompletionTokens} completion tokens, whereas you provided ${fit.completion}.`;
  return { status: 400, body: { error: { message, type: 'invalid_request_error', param: fit.completionParam, code: null } } };
}

/**
 * vLLM (current renderer): the prompt may take the context less the requested output (0 without
 * a cap); more is a `VLLMValidationError` on `input_tokens` (vllm/renderers/params.py,
 * `_token_len_check`, with the parameter names of `ChatCompletionRequest.build_tok_params`), whose
 * text ends with its parameter and value (vllm/exceptions.py, `__str__`), served as 400
 * `BadRequestError` with the status as `code` (`create_error_response`).
 */
function vllmRefusal({ prompt, completion, limit }: Fit): ProviderRefusal | null {
  const requested = completion ?? 0;
  const maxInput = limit - requested;
  if (prompt <= maxInput) return null;
  const message =
    `You passed ${prompt} input tokens and requested ${requested} output tokens. ` +
    `However, the model's context length is only ${limit} tokens, resulting in a maximum input length of ${maxInput} tokens. ` +
    `Please reduce the length of the input prompt. (parameter=input_tokens, value=${prompt})`;
  return { status: 400, body: { error: { message, type: 'BadRequestError', param: 'input_tokens', code: 400 } } };
}

/**
 * llama.cpp's llama-server: a prompt of the slot's context or more is refused; the requested
 * output is not part of the check (a long answer stops at the context with finish_reason
 * `length`). tools/server/server-context.cpp ("request (%d tokens) exceeds the available context
 * size (%d tokens), try increasing it", ERROR_TYPE_EXCEED_CONTEXT_SIZE), server-common.cpp
 * (`format_error_response`: code 400, type `exceed_context_size_error`), server-task.cpp (the
 * error's `n_prompt_tokens` and `n_ctx`).
 */
function llamaCppRefusal({ prompt, limit }: Fit): ProviderRefusal | null {
  if (prompt < limit) return null;
  return {
    status: 400,
    body: {
      error: {
        code: 400,
        message: `request (${prompt} tokens) exceeds the available context size (${limit} tokens), try increasing it`,
        type: 'exceed_context_size_error',
        n_prompt_tokens: prompt,
        n_ctx: limit,
      },
    },
  };
}

/**
 * Ollama (server/prompt.go, `chatPrompt`): with `truncate` at its default, the oldest messages
 * are dropped, system messages kept, until the rendered prompt fits `num_ctx`, and at least the
 * last message is kept, logged only at debug level. A prompt still too long is then cut to its
 * first `num_keep` (4) tokens and its end when context shift is on (the default for most models,
 * llm/llama_server.go `completionPromptForRequest`), or refused with this 400 when it is off; the
 * OpenAI-compatible endpoint wraps it as `invalid_request_error` (openai/openai.go `NewError`).
 */
export function ollamaContextRefusal(): ProviderRefusal {
  const message =
    'the prompt is longer than the context length currently available to the model; shorten the prompt, adjust the context length in settings, or use a model with a longer context length';
  return { status: 400, body: { error: { message, type: 'invalid_request_error', param: null, code: null } } };
}

/** The first message Ollama keeps: all that fits from the end, the last message whatever its size. */
export function ollamaTruncation(messageCount: number, fits: (firstKept: number) => boolean): number {
  for (let first = 0; first < messageCount - 1; first += 1) if (fits(first)) return first;
  return Math.max(0, messageCount - 1);
}
