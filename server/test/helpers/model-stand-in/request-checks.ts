import type { ChatCompletionCreateParams, ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { ContextProvider } from './provider-errors';

export function functionTools(tools: ChatCompletionTool[] | undefined) {
  return (tools ?? []).flatMap((tool) => (tool.type === 'function' ? [tool] : []));
}

/**
 * What OpenAI refuses as malformed before reading the prompt: empty lists, a `tool_choice` without
 * tools or naming none of them, and tool messages that do not answer the calls just before them
 * (the wording of the last two as quoted in aliasrobotics/cai#111 and microsoft/promptflow#3130).
 */
export function requestProblem(body: ChatCompletionCreateParams, provider: ContextProvider): unknown {
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    return openaiError("Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.", 'invalid_request_error', 'messages', 'empty_array');
  }
  const unreadable = body.messages.findIndex((message) => typeof message?.role !== 'string' || !readableContent(message.content));
  if (unreadable >= 0) {
    return openaiError(`Invalid value for 'messages[${unreadable}]': a message needs a role and a content.`, 'invalid_request_error', `messages[${unreadable}]`, null);
  }
  if (Array.isArray(body.tools) && body.tools.length === 0) {
    return openaiError("Invalid 'tools': empty array. Expected an array with minimum length 1, but got an empty array instead.", 'invalid_request_error', 'tools', 'empty_array');
  }
  const choice = body.tool_choice;
  if (choice !== undefined && choice !== 'none' && !body.tools?.length) {
    return openaiError("Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.", 'invalid_request_error', 'tool_choice', null);
  }
  if (typeof choice === 'object' && choice.type === 'function' && !functionTools(body.tools).some((tool) => tool.function.name === choice.function.name)) {
    return openaiError(`Invalid value for 'tool_choice': function '${choice.function.name}' is not among the 'tools'.`, 'invalid_request_error', 'tool_choice', null);
  }
  return provider === 'openai' ? toolPairingProblem(body.messages) : null;
}

function readableContent(content: unknown): boolean {
  return content === null || content === undefined || typeof content === 'string' || (Array.isArray(content) && content.every((part) => typeof part?.type === 'string'));
}

function toolPairingProblem(messages: ChatCompletionMessageParam[]): unknown {
  let awaited = new Set<string>();
  let callsAt = -1;
  for (const [index, message] of messages.entries()) {
    if (message.role === 'tool') {
      if (!awaited.delete(message.tool_call_id) && callsAt < 0) {
        return openaiError(
          "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          'invalid_request_error',
          `messages.[${index}].role`,
          null,
        );
      }
      continue;
    }
    if (awaited.size > 0) return unansweredCalls(awaited, callsAt);
    awaited = new Set(message.role === 'assistant' ? (message.tool_calls ?? []).map((call) => call.id) : []);
    callsAt = awaited.size > 0 ? index : -1;
  }
  return awaited.size > 0 ? unansweredCalls(awaited, callsAt) : null;
}

function unansweredCalls(awaited: Set<string>, index: number): unknown {
  return openaiError(
    `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...awaited].join(', ')}`,
    'invalid_request_error',
    `messages.[${index}].role`,
    null,
  );
}

export function openaiError(message: string, type: string, param: string | null, code: string | null) {
  return { error: { message, type, param, code } };
}

