import { continuation, continueSession, createSession, postMessage } from '../helpers/continuations';
import { startTestServer, TestServer } from '../helpers/test-server';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Prometheus text format: `# HELP` and `# TYPE` comments, then `name{label="value",...} number` lines. */
function parseMetrics(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`Not a sample line: ${line}`);
      const labels = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, key, value]) => [key, value]));
      return { name: match[1], labels, value: Number(match[3]) };
    });
}

function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value))
    .reduce((sum, sample) => sum + sample.value, 0);
}

async function scrape(server: TestServer, token?: string): Promise<{ status: number; type: string | null; text: string }> {
  const response = await fetch(`${server.url}/metrics`, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

describe('GET /metrics', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('answers in Prometheus text format with process, HTTP and database metrics', async () => {
    await server.admin.data('query Viewer { viewer { id } }');
    const scraped = await scrape(server);
    expect(scraped.status).toBe(200);
    expect(scraped.type).toMatch(/^text\/plain; version=0\.0\.4/);
    const samples = parseMetrics(scraped.text);
    expect(valueOf(samples, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(valueOf(samples, 'http_request_duration_seconds_count', { route: '/graphql', method: 'POST', status: '200' })).toBeGreaterThan(0);
    expect(valueOf(samples, 'graphql_operation_duration_seconds_count', { operation_name: 'Viewer', operation_type: 'query', outcome: 'ok' })).toBeGreaterThan(0);
    expect(valueOf(samples, 'database_pool_connections', { state: 'total' })).toBeGreaterThan(0);
  });

  it('counts continueSession calls by reason and outcome', async () => {
    const client = await server.newAccount('measured');
    const before = parseMetrics((await scrape(server)).text);
    const sessionId = await createSession(client);
    await postMessage(client, sessionId, 'Let us change the topic');
    const input = continuation(sessionId, { reason: 'PHASE_CHANGE' });
    expect((await continueSession(client, input)).__typename).toBe('ContinueSessionSuccess');
    expect((await continueSession(client, input)).replayed).toBe(true);
    expect((await continueSession(client, continuation('00000000-0000-4000-8000-000000000000', { reason: 'PHASE_CHANGE' }))).code).toBe('NOT_FOUND');

    const after = parseMetrics((await scrape(server)).text);
    const delta = (outcome: string) =>
      valueOf(after, 'continuations_total', { reason: 'PHASE_CHANGE', outcome }) - valueOf(before, 'continuations_total', { reason: 'PHASE_CHANGE', outcome });
    expect({ continued: delta('continued'), replayed: delta('replayed'), notFound: delta('NOT_FOUND') }).toEqual({ continued: 1, replayed: 1, notFound: 1 });
    expect(valueOf(after, 'agent_runs_total', { status: 'QUEUED' })).toBeGreaterThan(valueOf(before, 'agent_runs_total', { status: 'QUEUED' }));
  });

  it('counts WebSocket connections and the subscriptions streaming on them', async () => {
    const sessionId = await createSession(server.admin);
    const socket = server.admin.websocket();
    const events: unknown[] = [];
    const stop = socket.subscribe({ query: `subscription ($id: ID!) { sessionEvents(sessionId: $id) { id } }`, variables: { id: sessionId } }, {
      next: (event) => void events.push(event),
      error: () => undefined,
      complete: () => undefined,
    });
    try {
      for (let attempt = 0; attempt < 100; attempt++) {
        const samples = parseMetrics((await scrape(server)).text);
        if (valueOf(samples, 'graphql_active_subscriptions') >= 1) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const open = parseMetrics((await scrape(server)).text);
      expect(valueOf(open, 'websocket_connections')).toBeGreaterThanOrEqual(1);
      expect(valueOf(open, 'graphql_active_subscriptions')).toBeGreaterThanOrEqual(1);
    } finally {
      stop();
      await socket.dispose();
    }
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ metricsToken: 'scrape-secret' });
  });
  afterAll(() => server.close());

  it('refuses a request without the token, or with another one, and answers one bearing it', async () => {
    expect((await scrape(server)).status).toBe(401);
    expect((await scrape(server, 'not-the-token')).status).toBe(401);
    expect((await scrape(server, server.admin.apiKey!)).status).toBe(401);
    const scraped = await scrape(server, 'scrape-secret');
    expect(scraped.status).toBe(200);
    expect(parseMetrics(scraped.text).length).toBeGreaterThan(0);
  });
});
