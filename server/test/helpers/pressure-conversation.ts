import { AgentConfig, DEFAULT_AGENT_CONFIG } from '../../src/config';
import { postMessage } from './continuations';
import { GraphQLTestClient } from './graphql-client';
import { ModelStandIn, StandInRequest, tokensOf } from './model-stand-in';
import { settledRuns } from './runs';

/** The runtime on an OpenAI-compatible model served by the stand-in, with the window the server is told. */
export function agentOnStandIn(model: ModelStandIn, windowTokens: number, continuationThreshold: number): AgentConfig {
  return {
    ...DEFAULT_AGENT_CONFIG,
    provider: 'openai',
    openai: { baseURL: model.baseURL, apiKey: 'sk-test', model: 'gpt-4o', timeoutMs: 20_000 },
    windowTokens,
    continuationThreshold,
  };
}

const TOPICS = ['harbour survey', 'tide gauges', 'pier repairs', 'dredging schedule', 'berth allocation', 'crane inspections'];

/** The `index`th user message of a long working conversation: about 120 tokens, each different. */
export function workingMessage(index: number): string {
  const topic = TOPICS[index % TOPICS.length];
  const sentences = [
    `Note ${index} on the ${topic}: the readings from station ${100 + index} came in this morning and look consistent with last week.`,
    `Please keep track of item ${index * 7} for the report, and tell me whether the ${topic} numbers still add up after the correction.`,
    `The contractor asked about access on day ${(index % 28) + 1}; we said the east gate opens at ${6 + (index % 4)} and closes at ${17 + (index % 3)}.`,
    `Remember that budget line ${index + 40} is shared with the ${TOPICS[(index + 1) % TOPICS.length]} and must not exceed ${1_000 + index * 13} euros.`,
  ];
  return sentences.join(' ');
}

/** Tokens of `workingMessage(index)` as the stand-in counts text. */
export const workingMessageTokens = (index: number) => tokensOf(workingMessage(index));

export interface Turn {
  /** The session the message was posted to, and what was posted there before it (this message included). */
  sessionId: string;
  ownTexts: string[];
  text: string;
  /** The model requests the message caused, in order. */
  requests: StandInRequest[];
  /** The successor the runtime continued into, when it did. */
  continuedTo: string | null;
}

/**
 * A person's side of a conversation: each message posted to the session at the head of the
 * lineage once the previous one is answered, following each continuation into its successor.
 */
export async function converse(
  client: GraphQLTestClient,
  model: ModelStandIn,
  firstSessionId: string,
  texts: string[],
  onTurn?: (turn: Turn) => void | Promise<void>,
): Promise<Turn[]> {
  const turns: Turn[] = [];
  let sessionId = firstSessionId;
  let ownTexts: string[] = [];
  for (const text of texts) {
    const before = model.requests.length;
    ownTexts = [...ownTexts, text];
    await postMessage(client, sessionId, text);
    await settledRuns(client, sessionId, 30_000);
    const successor = await successorOf(client, sessionId);
    if (successor) await settledRuns(client, successor, 30_000);
    const turn: Turn = { sessionId, ownTexts, text, requests: model.requests.slice(before), continuedTo: successor };
    turns.push(turn);
    await onTurn?.(turn);
    if (successor) {
      sessionId = successor;
      ownTexts = [];
    }
  }
  return turns;
}

async function successorOf(client: GraphQLTestClient, sessionId: string): Promise<string | null> {
  const { session } = await client.data<{ session: { status: string; continuations: { successor: { id: string } }[] } }>(
    'query ($id: ID!) { session(id: $id) { status continuations { successor { id } } } }',
    { id: sessionId },
  );
  return session.status === 'CONTINUED' ? session.continuations[session.continuations.length - 1].successor.id : null;
}

/** The texts of a request's user messages. */
export function userTexts(request: StandInRequest): string[] {
  return request.body.messages.flatMap((message) => (message.role === 'user' ? [typeof message.content === 'string' ? message.content : JSON.stringify(message.content)] : []));
}

/** The runtime's note listing history left out of a request, if it has one. */
export function omissionNote(request: StandInRequest): string | null {
  for (const message of request.body.messages) {
    if (message.role === 'system' && typeof message.content === 'string' && message.content.includes('linked but not loaded')) return message.content;
  }
  return null;
}

/**
 * Whether a turn's request shows the session's whole own transcript, or says what it leaves out:
 * every message posted to the session is there, or a note lists the session's omitted events.
 */
export function showsWholeOrSaysSo(turn: Turn, request: StandInRequest): boolean {
  const shown = new Set(userTexts(request));
  if (turn.ownTexts.every((text) => shown.has(text))) return true;
  const note = omissionNote(request);
  return note !== null && note.includes(turn.sessionId) && shown.has(turn.text);
}
