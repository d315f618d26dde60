// A chat in the terminal that follows its conversation across continuations.
// Each line is a user message; "/continue <title>" continues the conversation in a new session.
// SC_URL (default http://127.0.0.1:4000) and SC_API_KEY name the server; SC_SESSION joins a session.
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import WebSocket from 'ws';
import { createClient } from '@session-continuation/sdk';

const client = createClient({ url: process.env.SC_URL ?? 'http://127.0.0.1:4000', apiKey: process.env.SC_API_KEY ?? '', webSocketImpl: WebSocket });
let sessionId = process.env.SC_SESSION ?? (await client.createSession({ title: 'Terminal chat' })).id;
let lastRequest = '';
console.log(`session ${sessionId}`);

const labels = { USER_MESSAGE: 'you', ASSISTANT_MESSAGE: 'agent', SYSTEM: 'system', CONTINUATION: '--' };
const shown = new Set();
let waiting = null;
const stop = client.followConversation(sessionId, {
  onEvent(event) {
    shown.add(event.id);
    if (labels[event.kind] && event.text) console.log(`${labels[event.kind]}: ${event.text}`);
    if (waiting?.id === event.id) waiting.resolve();
  },
  onContinued(edge) {
    sessionId = edge.successor.id;
    console.log(`== now in "${edge.successor.title}" (${edge.successor.id})`);
  },
  onError(error) {
    console.error(`Stopped following: ${error.message}`);
    process.exit(1);
  },
});

async function send(text) {
  const result = await client.postMessage({ sessionId, text, clientMessageId: randomUUID() });
  if (result.__typename === 'OperationError' && result.currentContinuation) {
    sessionId = result.currentContinuation.id;
    return send(text);
  }
  if (result.__typename === 'OperationError') return console.error(`${result.code}: ${result.message}`);
  lastRequest = text;
  return result.event.id;
}

async function continueAs(title) {
  const result = await client.continueSession({
    sessionId,
    idempotencyKey: randomUUID(),
    title,
    reason: 'USER_REQUEST',
    actor: 'USER',
    handoff: { purpose: title, currentRequest: lastRequest || title },
    sources: [],
  });
  if (result.__typename === 'OperationError') return console.error(`${result.code}: ${result.message}`);
  sessionId = result.successor.id;
  return result.edge.id;
}

let lastEventId = null;
for await (const line of createInterface({ input: process.stdin })) {
  const text = line.trim();
  if (!text) continue;
  const title = text.match(/^\/continue\s+(.+)$/)?.[1];
  if (title) await continueAs(title);
  else lastEventId = (await send(text)) ?? lastEventId;
}

// Show the conversation up to the last message sent before leaving.
if (lastEventId && !shown.has(lastEventId)) await new Promise((resolve) => (waiting = { id: lastEventId, resolve }));
stop();
await client.dispose();
