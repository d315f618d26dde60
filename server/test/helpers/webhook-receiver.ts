import { AddressInfo } from 'node:net';
import http from 'node:http';
import { Webhook } from 'standardwebhooks';

/** A delivery as the receiver got it: its signature verified with the endpoint's secret. */
export interface ReceivedWebhook {
  id: string;
  timestamp: string;
  type: string;
  body: { type: string; timestamp: string; data: Record<string, unknown> };
  /** The status the receiver answered. */
  answered: number;
}

/**
 * A webhook receiver on loopback, as a third party would run one: it verifies each request with
 * the `standardwebhooks` package and answers with the statuses it is told to (200 once they run out).
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  /** Requests whose signature did not verify. */
  readonly rejected: string[] = [];
  /** The path of every request. */
  readonly paths: string[] = [];
  /** Requests left unanswered from now on, as a receiver that hangs. */
  private stalls = 0;
  private answers: number[] = [];
  /** Each webhook-id is answered 500 this many times before 200. */
  private failuresPerId = 0;
  private secret: string | null = null;
  private server: http.Server | null = null;
  private waiters: (() => void)[] = [];
  port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  /** Listens (again, on the same port once it had one). */
  async open(): Promise<this> {
    const server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      this.paths.push(request.url ?? '');
      if (this.stalls > 0) {
        this.stalls -= 1;
        return;
      }
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const payload = Buffer.concat(chunks).toString('utf8');
        const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
        try {
          const body = new Webhook(this.secret ?? '').verify(payload, headers) as ReceivedWebhook['body'];
          const attemptsOfId = this.received.filter((hook) => hook.id === headers['webhook-id']).length;
          const answered = this.answers.shift() ?? (attemptsOfId < this.failuresPerId ? 500 : 200);
          this.received.push({ id: headers['webhook-id'], timestamp: headers['webhook-timestamp'], type: body.type, body, answered });
          response.writeHead(answered, answered >= 300 && answered < 400 ? { location: '/elsewhere' } : {}).end();
        } catch (error) {
          this.rejected.push(`${headers['webhook-id']}: ${(error as Error).message}`);
          response.writeHead(400).end();
        }
        this.waiters.splice(0).forEach((wake) => wake());
      });
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
    return this;
  }

  /** Stops listening: attempts meet a refused connection until {@link open}. */
  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }

  /** The endpoint's secret, once it is registered. */
  trust(secret: string): void {
    this.secret = secret;
  }

  /** The statuses to answer the next requests with, in order. */
  answerWith(...statuses: number[]): void {
    this.answers.push(...statuses);
  }

  /** Leaves the next `count` requests unanswered. */
  stall(count: number): void {
    this.stalls += count;
  }

  /** Answers 500 to the first `failures` attempts of each webhook-id, then 200. */
  failEachIdFirst(failures: number): void {
    this.failuresPerId = failures;
  }

  /** Successful deliveries (2xx answers) so far, once per webhook-id. */
  delivered(): ReceivedWebhook[] {
    const seen = new Set<string>();
    return this.received.filter((hook) => hook.answered < 300 && !seen.has(hook.id) && seen.add(hook.id));
  }

  /** Waits until `done` holds, checking after each request. */
  async until(done: (receiver: this) => boolean, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!done(this)) {
      if (Date.now() > deadline) throw new Error(`The receiver waited in vain; it got ${JSON.stringify(this.received.map((hook) => [hook.type, hook.id, hook.answered]))}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }
}

export const CREATE_ENDPOINT = `mutation ($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) {
  __typename
  ... on CreateWebhookEndpointSuccess { secret endpoint { id url events description createdAt disabledAt } }
  ... on OperationError { code message details { path message } }
} }`;

export const ENDPOINTS = `query { webhookEndpoints { id url events disabledAt deliveries(first: 50) {
  id event status attempts lastResponseStatus lastError nextAttemptAt createdAt deliveredAt
} } }`;

export interface DeliveryView {
  id: string;
  event: string;
  status: string;
  attempts: number;
  lastResponseStatus: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
}
