import { ErrorDetail } from '../../../shared/errors';
import { unstorableText } from '../../../shared/text';
import { EventKind, MESSAGE_MAX_CHARS } from '../../conversation/transcript';

/** The most messages one transcript import takes. */
export const TRANSCRIPT_MAX_MESSAGES = 10_000;

/** An event a transcript message becomes. */
export interface TranscriptEvent {
  kind: EventKind;
  text: string | null;
  data: object | null;
  toolCallId: string | null;
}

export type ParsedTranscript = { ok: true; events: TranscriptEvent[]; firstUserText: string | null } | { ok: false; details: ErrorDetail[] };

const KINDS: Record<string, EventKind> = {
  system: EventKind.SYSTEM,
  developer: EventKind.SYSTEM,
  user: EventKind.USER_MESSAGE,
  assistant: EventKind.ASSISTANT_MESSAGE,
  tool: EventKind.TOOL_RESULT,
};

/** A message's content as text: a string, or the text parts of an array of content parts; null for none. */
function contentText(content: unknown): string | null | undefined {
  if (content === null || content === undefined) return null;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const texts: string[] = [];
  for (const part of content) {
    if (part === null || typeof part !== 'object') return undefined;
    const { type, text } = part as { type?: unknown; text?: unknown };
    if (type === 'text' && typeof text === 'string') texts.push(text);
  }
  return texts.join('\n');
}

/** A message's tool calls as TOOL_CALL events: `[{ id, function: { name, arguments } }]`. */
function toolCalls(calls: unknown, path: string[], details: ErrorDetail[]): TranscriptEvent[] {
  if (calls === undefined || calls === null) return [];
  if (!Array.isArray(calls)) {
    details.push({ path, message: 'tool_calls is an array.' });
    return [];
  }
  return calls.flatMap((call, index) => {
    const { id, function: fn } = (call ?? {}) as { id?: unknown; function?: { name?: unknown; arguments?: unknown } };
    if (typeof id !== 'string' || typeof fn?.name !== 'string') {
      details.push({ path: [...path, String(index)], message: 'A tool call has an id and a function name.' });
      return [];
    }
    return [{ kind: EventKind.TOOL_CALL, text: null, data: { name: fn.name, arguments: fn.arguments ?? null }, toolCallId: id }];
  });
}

/**
 * Reads a conversation in the OpenAI chat format (a JSON array of `{ role, content }` messages,
 * with `tool_calls` and `tool_call_id` where tools were used): system and developer messages
 * become SYSTEM events, user and assistant messages their messages, tool calls and results their
 * events. Refuses anything else with the path of the first problems.
 */
export function parseTranscript(json: unknown): ParsedTranscript {
  if (!Array.isArray(json)) return { ok: false, details: [{ path: ['body'], message: 'A transcript is a JSON array of { role, content } messages.' }] };
  if (json.length === 0 || json.length > TRANSCRIPT_MAX_MESSAGES) {
    return { ok: false, details: [{ path: ['body'], message: `A transcript has 1 to ${TRANSCRIPT_MAX_MESSAGES} messages.` }] };
  }
  const details: ErrorDetail[] = [];
  const events: TranscriptEvent[] = [];
  let firstUserText: string | null = null;
  json.forEach((message: unknown, index) => {
    const path = ['body', String(index)];
    const { role, content, tool_calls: calls, tool_call_id: toolCallId } = (message ?? {}) as Record<string, unknown>;
    const kind = typeof role === 'string' ? KINDS[role] : undefined;
    const text = contentText(content);
    if (!kind) return void details.push({ path: [...path, 'role'], message: 'role is one of system, developer, user, assistant, tool.' });
    if (text === undefined) return void details.push({ path: [...path, 'content'], message: 'content is a string, an array of content parts, or null.' });
    if (text !== null && text.length > MESSAGE_MAX_CHARS) return void details.push({ path: [...path, 'content'], message: `content has at most ${MESSAGE_MAX_CHARS} characters.` });
    if (kind === EventKind.TOOL_RESULT && typeof toolCallId !== 'string') return void details.push({ path: [...path, 'tool_call_id'], message: 'A tool message names its tool_call_id.' });
    const calls_ = kind === EventKind.ASSISTANT_MESSAGE ? toolCalls(calls, [...path, 'tool_calls'], details) : [];
    if (text !== null && (text.trim() !== '' || calls_.length === 0)) {
      events.push({ kind, text, data: null, toolCallId: kind === EventKind.TOOL_RESULT ? (toolCallId as string) : null });
    }
    events.push(...calls_);
    if (kind === EventKind.USER_MESSAGE && firstUserText === null && text) firstUserText = text;
  });
  details.push(...unstorableText(json, ['body']));
  if (details.length > 0) return { ok: false, details: details.slice(0, 20) };
  if (events.length === 0) return { ok: false, details: [{ path: ['body'], message: 'The transcript holds no text.' }] };
  return { ok: true, events, firstUserText };
}
