import { describeAttachment } from '../../modules/attachments/attachments';
import { countTokens } from '../../shared/tokens';
import type { ModelAttachment, ModelMessage, ModelToolDefinition } from '../agent';

/**
 * What a model request costs in tokens of the server's tokenizer, counted on the high side of
 * what providers count: the content of every message, a few tokens per message for its role and
 * delimiters, the tool definitions as JSON (longer than the TypeScript-like rendering providers
 * give them), and the room kept for the answer.
 */
const MESSAGE_OVERHEAD = 5;
const TOOL_CALL_OVERHEAD = 4;
/** The reply's priming and the frame the tool definitions are put in. */
const REQUEST_OVERHEAD = 24;
/** A high-detail image as OpenAI counts one of 1024x1024; larger ones are scaled down to about that. */
const IMAGE_TOKENS = 765;
/** The tags or reference line around an attachment. */
const ATTACHMENT_FRAME = 24;
/** The answer's room by default: an eighth of the window, at most this. */
const DEFAULT_OUTPUT_CAP = 4_096;

/** The room kept for the answer in a window: the configured tokens, else an eighth of the window up to 4,096; never over half the window. */
export function outputReserve(windowTokens: number, configured: number | null): number {
  return Math.max(1, Math.min(configured ?? Math.min(DEFAULT_OUTPUT_CAP, Math.floor(windowTokens / 8)), Math.floor(windowTokens / 2)));
}

/** The tool definitions' tokens and the request's fixed frame: counted once per process, the tools never change. */
export function toolDefinitionTokens(tools: ModelToolDefinition[]): number {
  return REQUEST_OVERHEAD + countTokens(JSON.stringify(tools.map((tool) => ({ type: 'function', function: tool }))));
}

export function attachmentTokens(attachment: ModelAttachment): number {
  if (attachment.imageBase64 !== undefined) return IMAGE_TOKENS;
  return ATTACHMENT_FRAME + countTokens(attachment.text ?? describeAttachment(attachment));
}

export function messageTokens(message: ModelMessage): number {
  const content = message.contentTokens ?? countTokens(message.content ?? '');
  switch (message.role) {
    case 'user':
      return MESSAGE_OVERHEAD + content + (message.attachments ?? []).reduce((sum, attachment) => sum + attachmentTokens(attachment), 0);
    case 'assistant':
      return (
        MESSAGE_OVERHEAD +
        content +
        (message.toolCalls ?? []).reduce((sum, call) => sum + TOOL_CALL_OVERHEAD + countTokens(call.name) + countTokens(call.arguments), 0)
      );
    default:
      return MESSAGE_OVERHEAD + content;
  }
}

export function messagesTokens(messages: ModelMessage[]): number {
  return messages.reduce((sum, message) => sum + messageTokens(message), 0);
}

/** An event's share of a context before it is rendered: its stored tokens, its message's frame and its attachments. */
export function eventContextTokens(event: { tokenCount: number; attachmentCids: string[] }, attachments: ReadonlyMap<string, ModelAttachment>): number {
  return (
    MESSAGE_OVERHEAD +
    event.tokenCount +
    event.attachmentCids.reduce((sum, cid) => sum + (attachments.has(cid) ? attachmentTokens(attachments.get(cid)!) : 0), 0)
  );
}

/** Events of a session left out of a turn's context, listed to the model as a handle it can read back. */
export interface OmittedRange {
  sessionId: string;
  fromSeq: number;
  toSeq: number;
  tokens: number;
}

/**
 * The note a context carries where it leaves history out: each omitted range with its seq and
 * token count and how to read it back, so the model never takes a transcript that starts in the
 * middle for the whole conversation.
 */
export function omissionNote(ranges: OmittedRange[], own: boolean): string {
  const lines = ranges.map((range) => `- session ${range.sessionId}, events ${range.fromSeq}-${range.toSeq} (${range.tokens} tokens)`);
  return [
    own
      ? 'The beginning of this conversation is not loaded here, because the whole of it does not fit the model\'s context. Nothing of it was summarised or lost; these events are linked but not loaded:'
      : 'History inherited by this conversation is not loaded here, because it does not fit the model\'s context. These events are linked but not loaded:',
    ...lines,
    'Read them exactly with read_events (sessionId, fromSeq, toSeq; at most 50 events a call), or find within them with search_history, when the answer depends on them.',
  ].join('\n');
}
