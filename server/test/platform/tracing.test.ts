import { ChildProcess, execFile, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { continuation, continueSession, createSession, postMessage } from '../helpers/continuations';
import { GraphQLTestClient } from '../helpers/graphql-client';
import { TEST_EMBEDDED_BUFFER_MB, testServerDatabase } from '../setup/test-database';
import type { RecordedSpan } from '../fixtures/traced-server';

const serverDir = path.resolve(__dirname, '..', '..');

interface TracedServer {
  client: GraphQLTestClient;
  /** The spans ended so far. */
  spans(): Promise<RecordedSpan[]>;
  close(): Promise<void>;
}

/** The spans once `complete` holds for them: an HTTP server span ends as its response is sent, which can be just after the client has read it. */
async function spansWhen(server: TracedServer, complete: (spans: RecordedSpan[]) => boolean): Promise<RecordedSpan[]> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const spans = await server.spans();
    if (complete(spans) || Date.now() > deadline) return spans;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function startTracedServer(): Promise<TracedServer> {
  const database = await testServerDatabase();
  const apiKey = `sck_test_${randomBytes(16).toString('hex')}`;
  const child: ChildProcess = fork(path.join(serverDir, 'test/fixtures/traced-server.ts'), {
    cwd: serverDir,
    execArgv: ['-r', '@swc-node/register'],
    env: {
      PATH: process.env.PATH,
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: database.dataDir,
      EMBEDDED_BUFFER_MB: String(TEST_EMBEDDED_BUFFER_MB),
      ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
      BOOTSTRAP_API_KEY: apiKey,
      MODEL_PROVIDER: 'none',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { url: string }).url));
    child.once('exit', (code) => reject(new Error(`The traced server exited with ${code} before listening`)));
  });
  return {
    client: new GraphQLTestClient(url, apiKey),
    spans: () =>
      new Promise((resolve) => {
        child.once('message', (message) => resolve(message as RecordedSpan[]));
        child.send('spans');
      }),
    async close() {
      child.disconnect();
      await exited;
      await rm(database.dataDir, { recursive: true, force: true });
    },
  };
}

/** The spans below `root`, at any depth. */
function descendants(spans: RecordedSpan[], root: RecordedSpan): RecordedSpan[] {
  const children = spans.filter((span) => span.parentSpanId === root.spanId);
  return children.flatMap((child) => [child, ...descendants(spans, child)]);
}

describe('traces', () => {
  it('records a continueSession request as one trace: HTTP, the GraphQL operation, its resolver and the SQL it ran', async () => {
    const server = await startTracedServer();
    try {
      const sessionId = await createSession(server.client);
      await postMessage(server.client, sessionId, 'Plan the migration');
      const result = await continueSession(server.client, continuation(sessionId));
      expect(result.__typename).toBe('ContinueSessionSuccess');

      // Three requests: createSession, postMessage, continueSession.
      const spans = await spansWhen(server, (ended) => ended.filter((span) => span.attributes['url.path'] === '/graphql').length === 3);
      const resolver = spans.find((span) => span.name === 'graphql.resolve continueSession');
      expect(resolver).toBeDefined();
      const execute = spans.find((span) => span.spanId === resolver!.parentSpanId);
      expect(execute).toMatchObject({ name: 'mutation', attributes: { 'graphql.operation.type': 'mutation' } });
      const request = spans.find((span) => span.spanId === execute!.parentSpanId);
      expect(request).toMatchObject({ name: 'POST', attributes: { 'url.path': '/graphql', 'http.response.status_code': 200 } });

      const statements = descendants(spans, resolver!).filter((span) => span.attributes['db.system.name'] === 'postgresql');
      const texts = statements.map((span) => String(span.attributes['db.query.text']));
      // The session is locked, and the successor, its edge and its manifest are written in the same transaction.
      expect(texts.some((text) => /FOR UPDATE/i.test(text))).toBe(true);
      expect(texts.some((text) => /INSERT INTO continuation_edges/.test(text))).toBe(true);
      // Statements are recorded with their parameters' placeholders, never with the values sent.
      expect(texts.join('\n')).not.toContain('Carry on with the new topic');
    } finally {
      await server.close();
    }
  }, 60_000);

  it('loads none of the OpenTelemetry SDK or its instrumentations when no OTLP endpoint is configured', async () => {
    // prom-client loads the API alone (a no-op until an SDK registers) for its exemplars.
    const script =
      "require('./src/platform/observability/instrumentation'); require('./src/app'); console.log(JSON.stringify(Object.keys(require.cache)" +
      ".filter((file) => file.includes('/@opentelemetry/') && !file.includes('/@opentelemetry/api/'))));";
    const { stdout } = await promisify(execFile)(process.execPath, ['-r', '@swc-node/register', '-e', script], {
      cwd: serverDir,
      env: { PATH: process.env.PATH },
    });
    expect(JSON.parse(stdout)).toEqual([]);
  }, 60_000);
});
