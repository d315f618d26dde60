import { ModelAttachment, ModelMessage, ModelToolCall } from './agent';
import type { ContextUsage } from '../modules/conversation/context-usage';
import { CompiledSection, ContextSectionKind } from '../modules/continuation/projection/model';
import { EventKind } from '../modules/conversation/transcript';
import { SECTION_SEPARATOR } from '../modules/continuation/projection/render';
import { countJoinedTokens } from '../shared/tokens';

/** An event as the runtime gives it to a model. */
export interface ContextEvent {
  seq: number;
  kind: string;
  text: string | null;
  data: unknown;
  toolCallId: string | null;
  /** Cids of the attachments a user message links, in order. */
  attachmentCids?: string[];
  /** The count the event stored: its text's, plus its payload's when it has one. */
  tokenCount?: number;
  /** When the event was erased: its text is gone, its count is what the text held. */
  erasedAt?: Date | null;
}

/**
 * `message`, whose content is `event`'s text, with the count the event stored for it where that
 * count is the text's alone (no payload, not erased): a turn then counts none of the history it
 * loads again.
 */
function fromEventText(message: ModelMessage, event: ContextEvent): ModelMessage {
  if (event.tokenCount !== undefined && event.text !== null && event.data == null && !event.erasedAt) message.contentTokens = event.tokenCount;
  return message;
}

/** A user message, with the attachments it links among `attachments` (by cid). */
function userMessage(content: string, cids: string[] | undefined, attachments: ReadonlyMap<string, ModelAttachment>): ModelMessage {
  const attached = (cids ?? []).flatMap((cid) => attachments.get(cid) ?? []);
  return attached.length ? { role: 'user', content, attachments: attached } : { role: 'user', content };
}

/** What a TOOL_CALL event stores: the call exactly as the model made it. */
export interface ToolCallData {
  name: string;
  arguments: string;
}

/** Shown to the model in place of a delegated run's result that has not arrived yet. */
export const PENDING_RESULT = 'Delegated work is still running; its result will arrive later as a tool result.';

export function toolCallData(data: unknown): ToolCallData | null {
  if (typeof data !== 'object' || data === null) return null;
  const { name, arguments: args } = data as Record<string, unknown>;
  return typeof name === 'string' && typeof args === 'string' ? { name, arguments: args } : null;
}

/**
 * A transcript as chat messages. Consecutive tool calls form one assistant message, each call
 * followed by its result wherever the result was recorded, since chat APIs want results right
 * after their calls; a call still waiting (delegated work) gets a placeholder. A result whose call
 * is not in these events (delegated work transferred from a predecessor) becomes a note.
 * Continuation events are left out: a successor's context already carries its handoff. A user
 * message carries the attachments it links, as `attachments` holds them.
 */
export function transcriptMessages(events: ContextEvent[], attachments: ReadonlyMap<string, ModelAttachment> = new Map()): ModelMessage[] {
  const resultsByCall = new Map<string, ContextEvent>();
  for (const event of events) {
    if (event.kind === EventKind.TOOL_RESULT && event.toolCallId) resultsByCall.set(event.toolCallId, event);
  }
  const answeredHere = new Set<string>();
  const messages: ModelMessage[] = [];
  for (let index = 0; index < events.length; index += 1) {
    const event = events[index];
    switch (event.kind) {
      case EventKind.USER_MESSAGE:
        messages.push(fromEventText(userMessage(event.text ?? '', event.attachmentCids, attachments), event));
        break;
      case EventKind.ASSISTANT_MESSAGE:
        messages.push(fromEventText({ role: 'assistant', content: event.text ?? '' }, event));
        break;
      case EventKind.SYSTEM:
        messages.push(fromEventText({ role: 'system', content: event.text ?? '' }, event));
        break;
      case EventKind.TOOL_CALL: {
        const calls: { call: ModelToolCall; event: ContextEvent }[] = [];
        for (; index < events.length && events[index].kind === EventKind.TOOL_CALL; index += 1) {
          const data = toolCallData(events[index].data);
          if (data && events[index].toolCallId) {
            calls.push({ call: { id: events[index].toolCallId!, ...data }, event: events[index] });
          }
        }
        index -= 1;
        if (calls.length === 0) break;
        messages.push({ role: 'assistant', content: null, toolCalls: calls.map(({ call }) => call) });
        for (const { call } of calls) {
          const result = resultsByCall.get(call.id);
          if (result) answeredHere.add(call.id);
          const message: ModelMessage = { role: 'tool', toolCallId: call.id, content: result?.text ?? PENDING_RESULT };
          messages.push(result ? fromEventText(message, result) : message);
        }
        break;
      }
      case EventKind.TOOL_RESULT:
        if (!event.toolCallId || !answeredHere.has(event.toolCallId)) {
          messages.push({ role: 'user', content: `[Result of delegated work, tool call ${event.toolCallId ?? 'unknown'}]\n${event.text ?? ''}` });
        }
        break;
      default:
        break;
    }
  }
  return messages;
}

/**
 * A successor's first context is its manifest's compiled context and nothing else: the sections
 * in the compiler's order as instructions, and the initiating message, the one it answers, as the
 * user's turn, with the attachments its replay links (`replayedCids`, found in `attachments`).
 * With `countsKept` (the manifest is not erased, so each section's stored count is its text's),
 * the instructions' count is taken from the sections' counts, seams included, rather than counted
 * again on every turn of the successor.
 */
export function projectedMessages(
  sections: CompiledSection[],
  replayedCids: string[] = [],
  attachments: ReadonlyMap<string, ModelAttachment> = new Map(),
  countsKept = false,
): ModelMessage[] {
  const initiating = sections.find((section) => section.kind === ContextSectionKind.INITIATING_MESSAGE);
  const rest = sections.filter((section) => section !== initiating);
  const instructions: ModelMessage = { role: 'system', content: rest.map((section) => section.text).join(SECTION_SEPARATOR) };
  if (countsKept) instructions.contentTokens = countJoinedTokens(rest.map(({ text, tokenCount }) => ({ text, tokens: tokenCount })), SECTION_SEPARATOR);
  return [instructions, ...(initiating ? [userMessage(initiating.text, replayedCids, attachments)] : [])];
}

/** The runtime's instructions to every model, with the context usage it needs to decide in time. */
export function agentInstructions(usage: ContextUsage, title: string): string {
  const percent = Math.round((usage.tokens / usage.windowTokens) * 100);
  const threshold = Math.round(usage.threshold * 100);
  const advice =
    usage.tokens >= usage.threshold * usage.windowTokens
      ? 'The context is past that share: continue in a new session (continue_session, reason context_pressure) before answering at length.'
      : 'Below that share, answer here unless the work calls for a new session.';
  return [
    `You are the assistant of the conversation "${title}". Answer briefly and concretely.`,
    'When this conversation is no longer the right working context (the user changed subject, a phase ended, the',
    'user asked for a new session, or the context is crowded), call continue_session with a handoff and exact',
    'sources instead of answering; the successor answers there. Recall exact history with read_events,',
    'read_manifest and walk_lineage; read_resource, read_memory and read_attachment read stored material; delegate starts',
    'delegated work in a child session that reports back.',
    `Context usage: ${usage.tokens} of ${usage.windowTokens} tokens (${percent}%); a continuation is advised from ${threshold}%. ${advice}`,
  ].join(' ');
}
