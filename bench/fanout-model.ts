import { fork } from 'node:child_process';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { monotonicNow } from './model-process';

/**
 * The fan-out benchmark's model in a process of its own, as a remote model would be: it streams
 * `tokens` words `w<i>` in OpenAI's SSE format, `pauseMs` apart, to each request once the
 * benchmark says go, and remembers when each token left in the machine's monotonic clock. In the
 * benchmark's own process its pace would follow the load of the subscribers' clients there, which
 * differs between the server's rounds and the raw broadcast's.
 */
export interface FanoutModel {
  url: string;
  /** Lets the waiting request stream its answer. */
  go(): void;
  /** When each token of the last answer left; readies the model for the next round. */
  reset(): Promise<number[]>;
  close(): void;
}

type ToChild = { type: 'go' } | { type: 'reset' };
type FromChild = { type: 'listening'; url: string } | { type: 'sentAt'; sentAt: number[] };

export function startFanoutModel(tokens: number, pauseMs: number): Promise<FanoutModel> {
  // The child inherits this process's flags (`-r @swc-node/register`) and environment.
  const child = fork(__filename, [], { env: { ...process.env, FANOUT_MODEL: JSON.stringify({ tokens, pauseMs }) } });
  const resets: ((sentAt: number[]) => void)[] = [];
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`The model's process exited with ${code}`)));
    child.on('message', (message: FromChild) => {
      if (message.type === 'sentAt') resets.shift()!(message.sentAt);
      else
        resolve({
          url: message.url,
          go: () => child.send({ type: 'go' } satisfies ToChild),
          reset: () =>
            new Promise((answer) => {
              resets.push(answer);
              child.send({ type: 'reset' } satisfies ToChild);
            }),
          close: () => {
            child.removeAllListeners('exit');
            child.kill('SIGTERM');
          },
        });
    });
  });
}

function serve({ tokens, pauseMs }: { tokens: number; pauseMs: number }): void {
  let sentAt: number[] = [];
  let release: () => void = () => undefined;
  let started = new Promise<void>((resolve) => (release = resolve));
  const server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    for await (const _ of request);
    if (!request.url?.endsWith('/chat/completions')) {
      response.writeHead(404).end();
      return;
    }
    await started;
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const chunk = (delta: object, finish: string | null = null) =>
      `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 0, model: 'bench', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    response.write(chunk({ role: 'assistant', content: '' }));
    for (let index = 0; index < tokens; index++) {
      sentAt[index] = monotonicNow();
      response.write(chunk({ content: `w${index} ` }));
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
    response.write(chunk({}, 'stop'));
    response.end('data: [DONE]\n\n');
  });
  process.on('message', (message: ToChild) => {
    if (message.type === 'go') release();
    else {
      process.send!({ type: 'sentAt', sentAt } satisfies FromChild);
      sentAt = [];
      started = new Promise<void>((resolve) => (release = resolve));
    }
  });
  server.listen(0, '127.0.0.1', () => process.send!({ type: 'listening', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` } satisfies FromChild));
}

if (process.env.FANOUT_MODEL && process.send && require.main === module) serve(JSON.parse(process.env.FANOUT_MODEL));
