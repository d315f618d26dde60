import http from 'node:http';
import https from 'node:https';
import { Webhook } from 'standardwebhooks';
import { guardedLookup, literalRefusal } from './destination';

/** What one POST to an endpoint came to. */
export type AttemptResult = { ok: true; status: number } | { ok: false; status: number | null; error: string };

export interface AttemptOptions {
  timeoutMs: number;
  allowPrivateNetworks: boolean;
}

/** Connections are kept between attempts; each new one is checked as it opens. */
const agents = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) };

/**
 * POSTs a delivery's body to `url` once, signed by the Standard Webhooks scheme: `webhook-id` is
 * the delivery's id on every attempt, `webhook-timestamp` this attempt's time, `webhook-signature`
 * `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` under the endpoint's secret. Redirects
 * are not followed (a 3xx is a failure); the whole exchange has `timeoutMs`. Never throws.
 */
export async function attemptDelivery(delivery: { id: string; url: string; secret: string; body: string }, options: AttemptOptions): Promise<AttemptResult> {
  const url = new URL(delivery.url);
  if (!options.allowPrivateNetworks) {
    const refusal = literalRefusal(url);
    if (refusal) return { ok: false, status: null, error: refusal };
  }
  const sentAt = new Date();
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'session-continuation-webhooks',
    'webhook-id': delivery.id,
    'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
    'webhook-signature': new Webhook(delivery.secret).sign(delivery.id, sentAt, delivery.body),
  };
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise<AttemptResult>((resolve) => {
    const request = transport.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': Buffer.byteLength(delivery.body) },
        agent: agents[url.protocol as keyof typeof agents],
        signal: AbortSignal.timeout(options.timeoutMs),
        ...(options.allowPrivateNetworks ? {} : { lookup: guardedLookup }),
      },
      (response) => {
        const status = response.statusCode ?? 0;
        // The answer's body is not read, only drained, so that the connection can be kept.
        response.resume();
        response.on('end', () => resolve(status >= 200 && status < 300 ? { ok: true, status } : { ok: false, status, error: answerError(status) }));
        response.on('error', (error) => resolve({ ok: false, status, error: error.message }));
      },
    );
    request.on('error', (error) => resolve({ ok: false, status: null, error: networkError(error, options.timeoutMs) }));
    request.end(delivery.body);
  });
}

function answerError(status: number): string {
  if (status >= 300 && status < 400) return `The endpoint answered ${status}: redirects are not followed.`;
  return `The endpoint answered ${status}.`;
}

function networkError(error: Error, timeoutMs: number): string {
  if (error.name === 'AbortError' || error.name === 'TimeoutError') return `No answer within ${timeoutMs} ms.`;
  return error.message || error.name;
}
