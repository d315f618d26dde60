import { EventKind } from '../../modules/conversation/transcript';
import type { EventDraft } from '../../modules/conversation/transcript.repository';
import type { ModelToolCall } from '../agent';
import type { ToolOutcome } from '../tools';

/** A tool call's arguments as an object; null when the model wrote something else. */
export function parseArguments(raw: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(raw || '{}');
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The outcome of a call the runtime refused, as the model reads it. */
export function toolError(message: string): ToolOutcome {
  return { content: JSON.stringify({ error: message }), error: true };
}

/** The transcript's record of a call. */
export function toolCallDraft(call: ModelToolCall): EventDraft {
  return { kind: EventKind.TOOL_CALL, text: `${call.name}(${call.arguments})`, toolCallId: call.id, data: { name: call.name, arguments: call.arguments } };
}

/** The transcript's record of a call's result. */
export function toolResultDraft(call: ModelToolCall, outcome: ToolOutcome): EventDraft {
  return { kind: EventKind.TOOL_RESULT, text: outcome.content, toolCallId: call.id, data: { name: call.name, error: outcome.error } };
}
