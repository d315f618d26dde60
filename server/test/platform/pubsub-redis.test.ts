import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import { collect, GraphQLTestClient } from '../helpers/graphql-client';
import { createSession } from '../helpers/continuations';
import { exitOf, startServerProcess, waitForOutput } from '../helpers/server-process';
import { isolatedServerDatabase } from '../setup/test-database';

type ServerProcess = ReturnType<typeof startServerProcess>;

/** Several processes need a shared database server, and Redis beside it (CI starts both). */
const onPostgres = process.env.TEST_DATABASE_URL ? describe : describe.skip;
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

onPostgres('two server processes sharing publishes through Redis', () => {
  let database: Awaited<ReturnType<typeof isolatedServerDatabase>>;
  const processes: ServerProcess[] = [];
  const urls = new Map<ServerProcess, string>();
  const apiKey = `sck_test_${randomBytes(16).toString('hex')}`;

  async function start(extraEnv: Record<string, string>): Promise<ServerProcess> {
    const child = startServerProcess({
      DATABASE_URL: database.databaseUrl!,
      DATA_DIR: await mkdtemp(path.join(database.dataDir, 'process-')),
      BOOTSTRAP_API_KEY: apiKey,
      REDIS_URL,
      RUN_POLL_MS: '50',
      ...extraEnv,
    });
    processes.push(child);
    const [, url] = await waitForOutput(child, /API: (http:\/\/127\.0\.0\.1:\d+)\/graphql/);
    urls.set(child, url);
    return child;
  }

  beforeAll(async () => {
    database = await isolatedServerDatabase();
    await start({ MODEL_PROVIDER: 'builtin' });
    await start({ MODEL_PROVIDER: 'builtin', AGENT_CONCURRENCY: '0' });
  }, 120_000);

  afterAll(async () => {
    for (const child of processes) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await Promise.all(processes.map((child) => (child.exitCode === null && child.signalCode === null ? exitOf(child) : null)));
    await database.drop();
  }, 60_000);

  it('say so on /readyz', async () => {
    for (const child of processes) {
      const report = await (await fetch(`${urls.get(child)}/readyz`)).json();
      expect(report).toMatchObject({ ready: true, delivery: { ok: true, mode: 'redis' } });
    }
  });

  it("deliver the worker's events, run changes and answer deltas to a subscriber on the process that serves the API only", async () => {
    const client = new GraphQLTestClient(urls.get(processes[1])!, apiKey);
    const session = await createSession(client, 'through Redis');
    const ws = client.websocket();
    const events = collect<{ sessionEvents: { kind: string; text: string } }>(ws, 'subscription ($s: ID!) { sessionEvents(sessionId: $s, afterSeq: 0) { kind text } }', { s: session });
    const runs = collect<{ runUpdated: { id: string; status: string } }>(ws, 'subscription ($s: ID!) { runUpdated(sessionId: $s) { id status } }', { s: session });
    const post = async (text: string) =>
      (
        await client.data<{ postMessage: { run: { id: string } } }>(
          'mutation ($s: ID!, $t: String!) { postMessage(input: { sessionId: $s, text: $t }) { ... on PostMessageSuccess { run { id } } } }',
          { s: session, t: text },
        )
      ).postMessage.run.id;
    // A first turn through the worker proves both subscriptions are in place.
    await post('/echo ready');
    await events.until(2, 20_000);
    await runs.until(1, 20_000);

    const words = Array.from({ length: 200 }, (_, index) => `w${index}`).join(' ');
    const runId = await post(`/echo ${words}`);
    const output = collect<{ runOutput: { offset: number; text: string } }>(ws, 'subscription ($r: ID!) { runOutput(runId: $r) { offset text } }', { r: runId });
    await events.until(4, 20_000);
    await output.until(1_000, 20_000).catch(() => undefined);
    expect(output.completed).toBe(true);
    let produced = '';
    for (const { runOutput } of output.values) {
      expect(runOutput.offset).toBe(produced.length);
      produced += runOutput.text;
    }
    expect(produced).toBe(words);
    // Two hundred words over about 350 ms: several batches, each of which crossed through Redis.
    expect(output.values.length).toBeGreaterThan(2);
    expect(events.values.map((value) => value.sessionEvents.kind)).toEqual(['USER_MESSAGE', 'ASSISTANT_MESSAGE', 'USER_MESSAGE', 'ASSISTANT_MESSAGE']);
    expect(events.values[3].sessionEvents.text).toBe(words);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(runs.values.filter((value) => value.runUpdated.id === runId).map((value) => value.runUpdated.status)).toEqual(['QUEUED', 'RUNNING', 'SUCCEEDED']);
    await ws.dispose();
  });

  it("deliver a proposal made by the other process's agent, and its approval there, to a subscriber here", async () => {
    const client = new GraphQLTestClient(urls.get(processes[1])!, apiKey);
    const elsewhere = new GraphQLTestClient(urls.get(processes[0])!, apiKey);
    const { createSession: session } = await client.data<{ createSession: { id: string } }>(
      'mutation { createSession(input: { title: "asking through Redis", continuationApproval: ASK }) { id } }',
    );
    const ws = client.websocket();
    const proposals = collect<{ continuationProposals: { id: string; status: string } }>(
      ws,
      'subscription ($s: ID!) { continuationProposals(sessionId: $s) { id status } }',
      { s: session.id },
    );
    const events = collect(ws, 'subscription ($s: ID!) { sessionEvents(sessionId: $s, afterSeq: 0) { kind } }', { s: session.id });
    const post = (text: string) =>
      client.data('mutation ($s: ID!, $t: String!) { postMessage(input: { sessionId: $s, text: $t }) { __typename } }', { s: session.id, t: text });
    // A first turn through the worker proves the subscriptions are in place.
    await post('/echo ready');
    await events.until(2, 20_000);
    await post('/continue Elsewhere');
    await proposals.until(1, 20_000);
    const proposalId = proposals.values[0].continuationProposals.id;
    await elsewhere.data('mutation ($id: ID!) { approveContinuation(input: { proposalId: $id }) { __typename } }', { id: proposalId });
    await proposals.until(2, 20_000);
    expect(proposals.values.map((value) => value.continuationProposals)).toEqual([
      { id: proposalId, status: 'PENDING' },
      { id: proposalId, status: 'APPROVED' },
    ]);
    await ws.dispose();
  });
});
