import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import { Client } from 'pg';
import { collect, GraphQLTestClient } from '../helpers/graphql-client';
import { createSession, postMessage } from '../helpers/continuations';
import { FakeOpenAI, startFakeOpenAI } from '../helpers/fake-openai';
import { eventsOf, runsOf, settledRuns } from '../helpers/runs';
import { exitOf, startServerProcess, waitForOutput } from '../helpers/server-process';
import { isolatedServerDatabase } from '../setup/test-database';

type ServerProcess = ReturnType<typeof startServerProcess>;

/** Several processes sharing one database needs a database server: this suite runs on PostgreSQL only. */
const onPostgres = process.env.TEST_DATABASE_URL ? describe : describe.skip;

onPostgres('two server processes on one PostgreSQL', () => {
  let fake: FakeOpenAI;
  let database: Awaited<ReturnType<typeof isolatedServerDatabase>>;
  let sql: Client;
  const processes: ServerProcess[] = [];
  const urls = new Map<ServerProcess, string>();
  const apiKey = `sck_test_${randomBytes(16).toString('hex')}`;

  async function start(extraEnv: Record<string, string> = {}): Promise<ServerProcess> {
    const child = startServerProcess({
      DATABASE_URL: database.databaseUrl!,
      DATA_DIR: await mkdtemp(path.join(database.dataDir, 'process-')),
      BOOTSTRAP_API_KEY: apiKey,
      MODEL_PROVIDER: 'openai',
      OPENAI_BASE_URL: fake.baseURL,
      OPENAI_API_KEY: 'sk-workers',
      MODEL: 'test-model',
      RUN_LEASE_MS: '1500',
      RUN_POLL_MS: '50',
      ...extraEnv,
    });
    processes.push(child);
    const [, url] = await waitForOutput(child, /API: (http:\/\/127\.0\.0\.1:\d+)\/graphql/);
    urls.set(child, url);
    return child;
  }

  beforeAll(async () => {
    fake = await startFakeOpenAI({ apiKey: 'sk-workers' });
    database = await isolatedServerDatabase();
    await start();
    await start();
    sql = new Client({ connectionString: database.databaseUrl });
    await sql.connect();
  }, 120_000);

  afterAll(async () => {
    for (const child of processes) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await Promise.all(processes.map((child) => (child.exitCode === null && child.signalCode === null ? exitOf(child) : null)));
    await sql.end();
    await fake.close();
    await database.drop();
  }, 60_000);

  const clientOf = (child: ServerProcess) => new GraphQLTestClient(urls.get(child)!, apiKey);

  it('share the queue without running any run twice', async () => {
    fake.reply(async (body) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const users = body.messages.filter((message) => message.role === 'user');
      return { text: `answer to ${String(users[users.length - 1].content)}` };
    });
    const before = fake.requests.length;
    const sessions: string[] = [];
    for (let index = 0; index < 12; index += 1) {
      const client = clientOf(processes[index % 2]);
      const session = await createSession(client, `queue ${index}`);
      await postMessage(client, session, `question ${index}`);
      sessions.push(session);
    }
    const client = clientOf(processes[0]);
    for (const session of sessions) {
      const [run] = await settledRuns(client, session, 30_000);
      expect(run).toMatchObject({ status: 'SUCCEEDED', attempt: 1 });
      const answers = (await eventsOf(client, session)).filter((event) => event.kind === 'ASSISTANT_MESSAGE');
      expect(answers).toHaveLength(1);
    }
    const asked = fake.requests.slice(before).map((body) => body.messages.filter((message) => message.role === 'user').pop()!.content);
    expect(asked.sort()).toEqual(sessions.map((_, index) => `question ${index}`).sort());
  });

  it("deliver every process's publishes to subscribers on any process", async () => {
    // A process that serves the API only: whatever its subscribers see was published elsewhere.
    const apiOnly = await start({ AGENT_CONCURRENCY: '0' });
    const client = clientOf(apiOnly);
    fake.reply(() => ({ hold: true }));
    const session = await createSession(client, 'across processes');
    await postMessage(client, session, 'Tell me everything.');
    while (!fake.requests.some((body) => body.messages.some((message) => message.content === 'Tell me everything.'))) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }

    // The model is thinking in another process. Replaying from seq 0 proves the live subscription is in place.
    const ws = client.websocket();
    const runs = collect<{ runUpdated: { status: string } }>(ws, 'subscription ($s: ID!) { runUpdated(sessionId: $s) { status } }', { s: session });
    const events = collect<{ sessionEvents: { kind: string; text: string } }>(
      ws,
      'subscription ($s: ID!) { sessionEvents(sessionId: $s, afterSeq: 0) { kind text } }',
      { s: session },
    );
    await events.until(1, 20_000);
    fake.releaseHeld({ text: `long answer: ${'x'.repeat(12_000)}` });
    await events.until(2, 20_000);
    expect(events.values.map((value) => value.sessionEvents.kind)).toEqual(['USER_MESSAGE', 'ASSISTANT_MESSAGE']);
    // Far too large for a notification: events travel between processes by id and are read back whole.
    expect(events.values[1].sessionEvents.text).toBe(`long answer: ${'x'.repeat(12_000)}`);
    await runs.until(1, 20_000);
    expect(runs.values.map((value) => value.runUpdated.status)).toEqual(['SUCCEEDED']);
    await ws.dispose();
  });

  it("stream a run's answer to a subscriber on another process, and stop the run within a second when it is cancelled there", async () => {
    const apiOnly = await start({ AGENT_CONCURRENCY: '0' });
    const client = clientOf(apiOnly);
    const words = Array.from({ length: 60 }, (_, index) => `w${index}`).join(' ');
    fake.reply(() => ({ text: words, pauseMs: 40 }));
    const session = await createSession(client, 'stop across processes');
    const runId = (await client.data<{ postMessage: { run: { id: string } } }>(
      'mutation ($s: ID!) { postMessage(input: { sessionId: $s, text: "Go on and on." }) { ... on PostMessageSuccess { run { id } } } }',
      { s: session },
    )).postMessage.run.id;
    const ws = client.websocket();
    const output = collect<{ runOutput: { offset: number; text: string } }>(ws, 'subscription ($r: ID!) { runOutput(runId: $r) { offset text } }', { r: runId });
    await output.until(3, 20_000);

    const cancelledAt = Date.now();
    const cancelled = await client.data<{ cancelRun: { status: string } }>('mutation ($r: ID!) { cancelRun(runId: $r) { status } }', { r: runId });
    expect(cancelled.cancelRun.status).toBe('CANCELLED');
    await output.until(1_000, 20_000).catch(() => undefined);
    expect(output.completed).toBe(true);
    expect(Date.now() - cancelledAt).toBeLessThan(1_500);
    let produced = '';
    for (const { runOutput } of output.values) {
      expect(runOutput.offset).toBe(produced.length);
      produced += runOutput.text;
    }
    const answers = (await eventsOf(client, session)).filter((event) => event.kind === 'ASSISTANT_MESSAGE');
    expect(answers.map((event) => [event.text, event.data])).toEqual([[produced, { cancelled: true }]]);
    expect(produced.length).toBeLessThan(words.length);
    await ws.dispose();
  });

  it('finish the run of a process killed mid-run once its lease expires', async () => {
    fake.reply((body) => {
      const users = body.messages.filter((message) => message.role === 'user');
      return users[users.length - 1].content === 'think long' ? { hold: true } : { text: 'unexpected' };
    });
    const session = await createSession(clientOf(processes[0]), 'takeover');
    await postMessage(clientOf(processes[0]), session, 'think long');

    const deadline = Date.now() + 20_000;
    let owner: string | null = null;
    while (!owner) {
      if (Date.now() > deadline) throw new Error('No worker took the run');
      const [row] = (await sql.query(`SELECT lease_owner FROM runs WHERE session_id = $1`, [session])).rows;
      if (row?.lease_owner && fake.requests.some((body) => body.messages.some((message) => message.content === 'think long'))) owner = row.lease_owner;
      else await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const pid = Number(owner.split(':')[1]);
    const holder = processes.find((child) => child.pid === pid)!;
    const survivor = processes.find((child) => child !== holder && child.exitCode === null)!;
    expect(holder).toBeDefined();
    fake.reply(() => ({ text: 'finished after the takeover' }));
    holder.kill('SIGKILL');
    await exitOf(holder);

    const [run] = await settledRuns(clientOf(survivor), session, 30_000);
    expect(run).toMatchObject({ status: 'SUCCEEDED', attempt: 2 });
    expect((await eventsOf(clientOf(survivor), session)).map((event) => [event.kind, event.text])).toEqual([
      ['USER_MESSAGE', 'think long'],
      ['ASSISTANT_MESSAGE', 'finished after the takeover'],
    ]);
    expect(await runsOf(clientOf(survivor), session)).toHaveLength(1);
  }, 60_000);
});
