/**
 * What the runtime says to a model and what it gets back, in the chat-completions shape that
 * OpenAI-compatible servers share. Providers translate this to their wire format.
 */
import type { AttachmentReference } from '../modules/attachments/attachments';
import type { ContextUsage } from '../modules/conversation/context-usage';

export interface ModelToolCall {
  id: string;
  name: string;
  /** The arguments as the model wrote them: a JSON object in text, possibly malformed. */
  arguments: string;
}

/**
 * A file attached to a user message as a model is given it: always its reference; an image's
 * bytes for models that read images; a text file's content.
 */
export interface ModelAttachment extends AttachmentReference {
  /** Base64 of an image's bytes. */
  imageBase64?: string;
  /** A text file's content. */
  text?: string;
}

/**
 * A message of a model request. `contentTokens` is its content's token count where that is known
 * already (an event's stored count, for a message that is one event's text); providers send
 * nothing of it.
 */
export type ModelMessage = (
  | { role: 'system'; content: string }
  | { role: 'user'; content: string; attachments?: ModelAttachment[] }
  | { role: 'assistant'; content: string | null; toolCalls?: ModelToolCall[] }
  | { role: 'tool'; toolCallId: string; content: string }
) & { contentTokens?: number };

export interface ModelToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}

/** Plain facts about the turn, for agents that decide by rule rather than by reading the messages. */
export interface TurnFacts {
  sessionId: string;
  sessionTitle: string;
  sessionKind: string;
  /** The message this turn answers, when it answers one. */
  userMessage: { id: string; seq: number; text: string; replayed: boolean; attachmentNames: string[] } | null;
  /** Earlier user messages of this session, oldest first, at most a few. */
  earlierUserMessages: string[];
  /** The session's first event and the last one before the user message: the range a handoff cites. */
  citableRange: { fromEventId: string; toEventId: string } | null;
  contextUsage: ContextUsage;
  /** The open plan's steps, when there is one. */
  openPlan: { revision: number; steps: { title: string; status: string }[] } | null;
  /** Delegated runs still pending in this session: a continuation must transfer them. */
  pendingRunIds: string[];
  /** Set for the run of delegated work: the task it was given. */
  delegatedTask: string | null;
  /** Set for the turn after a person rejected the agent's proposal to continue: it answers in place. */
  rejectedContinuation?: { title: string; note: string | null } | null;
}

export interface ModelRequest {
  messages: ModelMessage[];
  tools: ModelToolDefinition[];
  facts: TurnFacts;
  signal?: AbortSignal;
  /** Receives the answer's text as it is produced, piece by piece; the reply still holds all of it. */
  onTextDelta?: (delta: string) => void;
  /** Receives the pieces of each tool call's arguments as they are produced (a provider that streams them). */
  onArgumentsDelta?: (call: { index: number; name: string }, delta: string) => void;
  /** Tokens the answer may take at most: the room the runtime left for it in the window. */
  maxOutputTokens?: number;
  /** A tool the model must call (its name): the runtime asking for a draft, such as a handoff. */
  requiredTool?: string;
}

export interface ModelReply {
  text: string | null;
  toolCalls: ModelToolCall[];
}

/** A model behind the runtime. Throws {@link ModelProviderError} when the model cannot answer. */
export interface ModelProvider {
  readonly name: string;
  /** Whether it reads what attachments hold (images, text) rather than only their references; loading it costs reads. */
  readonly readsAttachments?: boolean;
  /** Whether it continues at the context threshold by its own rule, so the runtime need not ask it to. */
  readonly continuesAtThreshold?: boolean;
  complete(request: ModelRequest): Promise<ModelReply>;
}

/** A failure to get an answer from the model; the message is shown on the failed run. */
export class ModelProviderError extends Error {}

/**
 * The model refused the request for its context length. `limit` is the context length the
 * provider stated, when it stated one.
 */
export class ModelContextExceeded extends ModelProviderError {
  constructor(
    message: string,
    readonly limit: number | null,
  ) {
    super(message);
  }
}
