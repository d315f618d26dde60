import { canonicalJson } from '../../shared/canonical-json';
import { ErrorDetail } from '../../shared/errors';
import { sha256 } from '../../shared/sha256';
import { countTokens } from '../../shared/tokens';

export const EventKind = {
  USER_MESSAGE: 'USER_MESSAGE',
  ASSISTANT_MESSAGE: 'ASSISTANT_MESSAGE',
  TOOL_CALL: 'TOOL_CALL',
  TOOL_RESULT: 'TOOL_RESULT',
  SYSTEM: 'SYSTEM',
  CONTINUATION: 'CONTINUATION',
} as const;
export type EventKind = (typeof EventKind)[keyof typeof EventKind];

export const MESSAGE_MAX_CHARS = 100_000;
export const CLIENT_MESSAGE_ID_MAX_CHARS = 200;
/** The hash a session's first event chains from. */
export const GENESIS_HASH = '';

/** Everything about an event that its hash covers. */
export interface EventContent {
  sessionId: string;
  seq: number;
  kind: EventKind;
  text: string | null;
  data: unknown;
  toolCallId: string | null;
  replayOfId: string | null;
  createdAt: Date;
  /** Cids of the attachments a message links, in order; absent or empty for none. */
  attachmentCids?: string[];
}

/** The canonical JSON of an event's payload, which its hash and its token count both cover; null for none. */
export function payloadJson(data: unknown): string | null {
  return data == null ? null : canonicalJson(data);
}

/**
 * sha256 (hex) of the canonical JSON array
 * `[previousHash, sessionId, seq, kind, text, data, toolCallId, replayOfId, createdAt]`,
 * where `createdAt` is the ISO-8601 UTC string with milliseconds and absent values are null; an
 * event linking attachments adds their cids, in order, as a tenth element. Events without
 * attachments (every event written before they existed) hash exactly as before.
 * `payload` is the payload's canonical JSON when the caller has it already.
 */
export function eventHash(previousHash: string, content: EventContent, payload = payloadJson(content.data)): string {
  const before = [previousHash, content.sessionId, content.seq, content.kind, content.text].map(canonicalJson).join(',');
  const cids = content.attachmentCids ?? [];
  const after = [content.toolCallId, content.replayOfId, content.createdAt.toISOString(), ...(cids.length ? [cids] : [])]
    .map(canonicalJson)
    .join(',');
  return sha256(`[${before},${payload ?? 'null'},${after}]`);
}

/** Token count of an event: its text plus the canonical JSON of its payload. */
export function eventTokenCount(text: string | null, data: unknown, payload = payloadJson(data)): number {
  return countTokens(text ?? '') + (payload === null ? 0 : countTokens(payload));
}

/** Problems with a user message, addressed under `pathPrefix`. */
export function validateUserMessage(
  input: { text: string; clientMessageId?: string | null },
  pathPrefix: string[],
): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  if (input.text.trim().length === 0) {
    details.push({ path: [...pathPrefix, 'text'], message: 'Message text must not be empty.' });
  } else if (input.text.length > MESSAGE_MAX_CHARS) {
    details.push({
      path: [...pathPrefix, 'text'],
      message: `Message text must be at most ${MESSAGE_MAX_CHARS} characters (got ${input.text.length}).`,
    });
  }
  const key = input.clientMessageId;
  if (key != null && (key.length === 0 || key.length > CLIENT_MESSAGE_ID_MAX_CHARS)) {
    details.push({
      path: [...pathPrefix, 'clientMessageId'],
      message: `clientMessageId must be 1 to ${CLIENT_MESSAGE_ID_MAX_CHARS} characters.`,
    });
  }
  return details;
}
