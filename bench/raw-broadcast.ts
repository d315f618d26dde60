import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';

/**
 * The raw limit of the fan-out benchmark, in a process of its own: on POST /start it reads the
 * model's SSE stream and broadcasts the text to every connected socket, batched as the server
 * batches a run's output, then `{"end":true}`. No GraphQL, no database, no access checks.
 */
const MODEL_URL = process.env.MODEL_URL!;
const BATCH_MS = Number(process.env.BATCH_MS);
const BATCH_CHARS = Number(process.env.BATCH_CHARS);

const server = createServer(async (request, response) => {
  for await (const _ of request);
  response.end();
  if (request.url === '/start') void broadcast();
});
const sockets = new WebSocketServer({ server });

function send(message: object): void {
  const frame = JSON.stringify(message);
  for (const socket of sockets.clients) socket.send(frame);
}

async function broadcast(): Promise<void> {
  const model = await fetch(`${MODEL_URL}/chat/completions`, { method: 'POST', body: JSON.stringify({ stream: true }) });
  let pending = '';
  let timer: NodeJS.Timeout | null = null;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (pending) send({ text: pending });
    pending = '';
  };
  let buffered = '';
  for await (const bytes of model.body as unknown as AsyncIterable<Uint8Array>) {
    buffered += Buffer.from(bytes).toString('utf8');
    let end: number;
    while ((end = buffered.indexOf('\n\n')) >= 0) {
      const event = buffered.slice(0, end).replace(/^data: /, '');
      buffered = buffered.slice(end + 2);
      if (event === '[DONE]') continue;
      const content = (JSON.parse(event) as { choices: { delta: { content?: string } }[] }).choices[0].delta.content;
      if (!content) continue;
      pending += content;
      if (pending.length >= BATCH_CHARS) flush();
      else timer ??= setTimeout(flush, BATCH_MS);
    }
  }
  flush();
  send({ end: true });
}

server.listen(0, '127.0.0.1', () => console.log(`listening on ${(server.address() as AddressInfo).port}`));
