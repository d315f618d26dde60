import { collect, GraphQLTestClient } from '../helpers/graphql-client';
import { createSession, subscribed } from '../helpers/continuations';
import { eventsOf, runsOf, sessionOf, settledRuns } from '../helpers/runs';
import { startTestServer, TestServer } from '../helpers/test-server';
import { DEFAULT_AGENT_CONFIG } from '../../src/config';
import { DEFAULT_CONTINUATION_POLICY } from '../../src/modules/continuation/continuations.service';

const POST = `mutation ($s: ID!, $t: String!) { postMessage(input: { sessionId: $s, text: $t }) {
  ... on PostMessageSuccess { event { id seq } run { id kind status } }
  ... on OperationError { code message } } }`;

async function post(client: GraphQLTestClient, sessionId: string, text: string) {
  const { postMessage } = await client.data<{ postMessage: { event: { id: string; seq: number }; run: { id: string; kind: string; status: string } } }>(
    POST,
    { s: sessionId, t: text },
  );
  return postMessage;
}

describe('the agent runtime with the built-in agent', () => {
  let server: TestServer;
  let client: GraphQLTestClient;

  beforeAll(async () => {
    server = await startTestServer({ agent: { ...DEFAULT_AGENT_CONFIG, provider: 'builtin', pollMs: 50 } });
    client = await server.newAccount('runtime');
  });
  afterAll(() => server.close());

  it('answers a user message through a run, streamed over WebSocket', async () => {
    const session = await createSession(client, 'chat');
    const ws = client.websocket();
    const events = collect<{ sessionEvents: { kind: string; text: string } }>(ws, 'subscription ($s: ID!) { sessionEvents(sessionId: $s) { kind text } }', {
      s: session,
    });
    const runs = collect<{ runUpdated: { id: string; status: string } }>(ws, 'subscription ($s: ID!) { runUpdated(sessionId: $s) { id status } }', { s: session });
    await subscribed(server, 'SESSION_EVENT', session);
    await subscribed(server, 'RUN_UPDATED', session);

    const posted = await post(client, session, 'Please keep the meeting notes short.');
    expect(posted.run).toMatchObject({ kind: 'TURN', status: 'QUEUED' });
    await events.until(2);
    expect(events.values.map((value) => value.sessionEvents)).toEqual([
      { kind: 'USER_MESSAGE', text: 'Please keep the meeting notes short.' },
      { kind: 'ASSISTANT_MESSAGE', text: 'Noted: "Please keep the meeting notes short.".' },
    ]);
    await runs.until(3);
    expect(runs.values.map((value) => value.runUpdated)).toEqual([
      { id: posted.run.id, status: 'QUEUED' },
      { id: posted.run.id, status: 'RUNNING' },
      { id: posted.run.id, status: 'SUCCEEDED' },
    ]);
    await ws.dispose();
  });

  it('/continue moves the turn to a successor that answers there; the predecessor ends with the transition card', async () => {
    const session = await createSession(client, 'Design');
    await post(client, session, 'We will use PostgreSQL for storage.');
    await settledRuns(client, session);
    const ws = client.websocket();
    const continued = collect<{ sessionContinued: { edge: { reason: string }; successor: { id: string } } }>(
      ws,
      'subscription ($s: ID) { sessionContinued(sessionId: $s) { edge { reason } successor { id } } }',
      { s: session },
    );
    await subscribed(server, 'SESSION_CONTINUED', session);

    const request = await post(client, session, '/continue Next phase');
    await continued.until(1);
    const successorId = continued.values[0].sessionContinued.successor.id;
    expect(continued.values[0].sessionContinued.edge.reason).toBe('USER_REQUEST');
    await settledRuns(client, successorId);

    const predecessor = await sessionOf(client, session);
    expect(predecessor.status).toBe('CONTINUED');
    expect(predecessor.continuations).toMatchObject([{ reason: 'USER_REQUEST', actor: 'AGENT', successor: { id: successorId, title: 'Next phase' } }]);
    const before = await eventsOf(client, session);
    // The turn of "/continue" has no answer here: the transition card ends it.
    expect(before.slice(-2).map((event) => [event.kind, event.text])).toEqual([
      ['USER_MESSAGE', '/continue Next phase'],
      ['CONTINUATION', 'Continued in "Next phase"'],
    ]);
    expect((await runsOf(client, session)).find((run) => run.id === request.run.id)).toMatchObject({ status: 'SUCCEEDED' });

    const after = await eventsOf(client, successorId);
    expect(after.map((event) => event.kind)).toEqual(['CONTINUATION', 'USER_MESSAGE', 'ASSISTANT_MESSAGE']);
    expect(after[1].text).toBe('/continue Next phase');
    expect(after[2].text).toContain('"Next phase", a new session');

    // The handoff was written from the transcript: the request verbatim, the decision, the cited conversation.
    const manifest = predecessor.continuations[0].manifest;
    const handoff = manifest.context.sections.find((section) => section.kind === 'HANDOFF')!.text;
    expect(handoff).toContain('/continue Next phase');
    expect(handoff).toContain('We will use PostgreSQL for storage.');
    await ws.dispose();
  });

  it('continues on a message over 20,000 characters: the successor replays it whole, the handoff holds its first 20,000', async () => {
    const session = await createSession(client, 'Long');
    const text = `/continue Next\n${'Measure twice, cut once. '.repeat(1_000)}`;
    await post(client, session, text);
    await settledRuns(client, session);
    const { continuations } = await sessionOf(client, session);
    expect(continuations).toMatchObject([{ reason: 'USER_REQUEST', successor: { title: 'Next' } }]);
    const successor = continuations[0].successor.id;
    expect((await eventsOf(client, successor))[1].text).toBe(text);
    const { continuationEdge } = await client.data<{ continuationEdge: { handoff: { currentRequest: string } } }>(
      'query ($id: ID!) { continuationEdge(id: $id) { handoff { currentRequest } } }',
      { id: continuations[0].id },
    );
    expect(continuationEdge.handoff.currentRequest).toHaveLength(20_000);
  });

  it('/phase continues with PHASE_CHANGE, a plainly different subject with TOPIC_CHANGE', async () => {
    const phased = await createSession(client, 'Release');
    await post(client, phased, '/phase Testing');
    await settledRuns(client, phased);
    expect((await sessionOf(client, phased)).continuations).toMatchObject([{ reason: 'PHASE_CHANGE', successor: { title: 'Testing' } }]);

    const topical = await createSession(client, 'Garden');
    for (const text of ['The tomatoes need watering every morning.', 'Tomatoes grow best beside basil plants.', 'Prune the tomatoes weekly in summer.']) {
      await post(client, topical, text);
      await settledRuns(client, topical);
    }
    expect((await sessionOf(client, topical)).status).toBe('ACTIVE');
    await post(client, topical, 'Compare mortgage interest rates between banks quarterly.');
    await settledRuns(client, topical);
    const continued = await sessionOf(client, topical);
    expect(continued.continuations).toMatchObject([{ reason: 'TOPIC_CHANGE' }]);
    const successor = continued.continuations[0].successor.id;
    await settledRuns(client, successor);
    expect((await eventsOf(client, successor)).map((event) => [event.kind, event.text])).toEqual([
      ['CONTINUATION', 'Continued from "Garden"'],
      ['USER_MESSAGE', 'Compare mortgage interest rates between banks quarterly.'],
      ['ASSISTANT_MESSAGE', 'Noted: "Compare mortgage interest rates between banks quarterly.".'],
    ]);
  });

  it('Session.runs(last) gives the newest runs, oldest first', async () => {
    const session = await createSession(client, 'three turns');
    const posted = [];
    for (const text of ['one', 'two', 'three']) {
      posted.push((await post(client, session, text)).run.id);
      await settledRuns(client, session);
    }
    const { session: read } = await client.data<{ session: { runs: { id: string }[] } }>(
      'query ($id: ID!) { session(id: $id) { runs(last: 2) { id } } }',
      { id: session },
    );
    expect(read.runs.map((run) => run.id)).toEqual(posted.slice(1));
    const { session: none } = await client.data<{ session: { runs: { id: string }[] } }>('query ($id: ID!) { session(id: $id) { runs(last: 0) { id } } }', {
      id: session,
    });
    expect(none.runs).toEqual([]);
    const refused = await client.request('query ($id: ID!) { session(id: $id) { runs(last: 101) { id } } }', { id: session });
    expect(refused.errors?.[0]?.extensions?.code).toBe('INVALID_INPUT');
  });

  it("a list of sessions answers each session's own runs, read in one statement per field however long the list", async () => {
    const posted: Record<string, string[]> = {};
    for (const [title, texts] of [['two turns', ['first', 'second']], ['one turn', ['only']], ['no turn', []]] as const) {
      const session = await createSession(client, title);
      posted[session] = [];
      for (const text of texts) {
        posted[session].push((await post(client, session, text)).run.id);
        await settledRuns(client, session);
      }
    }
    const runsRead: string[] = [];
    const logger = server.app.database.dataSource.logger;
    const logQuery = logger.logQuery.bind(logger);
    logger.logQuery = (query, parameters, runner) => {
      const text = typeof query === 'string' ? query : (query as { text: string }).text;
      if (/^SELECT\b[^]*\bFROM runs\b/.test(text.trim())) runsRead.push(text);
      return logQuery(query, parameters, runner);
    };
    type Listed = { id: string; all: { id: string }[]; newest: { id: string }[]; succeeded: { id: string }[]; failed: { id: string }[] };
    const { sessions } = await client.data<{ sessions: { edges: { node: Listed }[] } }>(
      `{ sessions(first: 50) { edges { node { id all: runs { id } newest: runs(last: 1) { id } succeeded: runs(status: SUCCEEDED) { id } failed: runs(status: FAILED) { id } } } } }`,
    );
    logger.logQuery = logQuery;
    const listed = sessions.edges.map(({ node }) => node).filter((node) => node.id in posted);
    expect(listed).toHaveLength(3);
    for (const node of listed) {
      const ids = posted[node.id];
      expect(node.all.map((run) => run.id)).toEqual(ids);
      expect(node.newest.map((run) => run.id)).toEqual(ids.slice(-1));
      expect(node.succeeded.map((run) => run.id)).toEqual(ids);
      expect(node.failed).toEqual([]);
    }
    expect(runsRead).toHaveLength(4);
  });

  it('retryRun refuses a run that did not fail, and an unknown run', async () => {
    const session = await createSession(client, 'retry');
    const { run } = await post(client, session, 'hello');
    await settledRuns(client, session);
    const succeeded = await client.request('mutation ($id: ID!) { retryRun(runId: $id) { id } }', { id: run.id });
    expect(succeeded.errors?.[0]).toMatchObject({
      message: 'Only a failed run can be retried: it succeeded, and its answer stands.',
      extensions: { code: 'INVALID_INPUT' },
    });
    const unknown = await client.request('mutation { retryRun(runId: "00000000-0000-4000-8000-000000000000") { id } }');
    expect(unknown.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const stranger = await server.newAccount('stranger');
    const foreign = await stranger.request('mutation ($id: ID!) { retryRun(runId: $id) { id } }', { id: run.id });
    expect(foreign.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});

describe('context pressure', () => {
  let server: TestServer;
  let client: GraphQLTestClient;
  const windowTokens = 3_000;

  beforeAll(async () => {
    server = await startTestServer({
      agent: { ...DEFAULT_AGENT_CONFIG, provider: 'builtin', pollMs: 50, windowTokens, continuationThreshold: 0.5 },
      continuationPolicy: { ...DEFAULT_CONTINUATION_POLICY, defaultTokenBudget: 1_000 },
    });
    client = await server.newAccount('pressure');
  });
  afterAll(() => server.close());

  it('continues between turns once the context passes its threshold, into a successor whose first context fits its budget', async () => {
    const session = await createSession(client, 'Long haul');
    const paragraph = (index: number) => `Part ${index} of the inventory report: ${'crates pallets shelves forklifts '.repeat(40)}`;
    let posted = 0;
    let last = '';
    while ((await sessionOf(client, session)).status === 'ACTIVE') {
      expect(posted).toBeLessThan(10);
      last = (await post(client, session, paragraph((posted += 1)))).event.id;
      await settledRuns(client, session);
    }
    // Each turn checks the context as it starts, the new message included: answered below the threshold, continued above it.
    expect(posted).toBeGreaterThan(1);
    const predecessor = await sessionOf(client, session);
    const [edge] = predecessor.continuations;
    expect(edge.reason).toBe('CONTEXT_PRESSURE');
    const { continuationEdge } = await client.data<{ continuationEdge: { initiatingEvent: { id: string; seq: number } } }>(
      'query ($id: ID!) { continuationEdge(id: $id) { initiatingEvent { id seq } } }',
      { id: edge.id },
    );
    expect(continuationEdge.initiatingEvent.id).toBe(last);
    const answers = (await eventsOf(client, session)).filter((event) => event.kind === 'ASSISTANT_MESSAGE');
    expect(answers).toHaveLength(posted - 1);
    expect(edge.manifest.tokenBudget).toBe(1_000);
    expect(edge.manifest.tokenCost).toBeLessThanOrEqual(1_000);

    await settledRuns(client, edge.successor.id);
    const successor = await client.data<{ session: { continuationSuggested: boolean; contextUsage: { tokens: number } } }>(
      'query ($id: ID!) { session(id: $id) { continuationSuggested contextUsage { tokens } } }',
      { id: edge.successor.id },
    );
    expect(successor.session.continuationSuggested).toBe(false);
    expect(successor.session.contextUsage.tokens).toBeLessThan(0.5 * windowTokens);
    expect((await eventsOf(client, edge.successor.id)).map((event) => event.kind)).toEqual(['CONTINUATION', 'USER_MESSAGE', 'ASSISTANT_MESSAGE']);
  });

  it('Session.continuationSuggested turns true once the transcript passes the threshold', async () => {
    const quiet = await startTestServer({ agent: { ...DEFAULT_AGENT_CONFIG, provider: 'none', windowTokens, continuationThreshold: 0.5 } });
    try {
      const account = await quiet.newAccount('usage');
      const session = await createSession(account, 'Growing');
      const read = () =>
        account.data<{ session: { tokenCount: number; continuationSuggested: boolean; contextUsage: { tokens: number; windowTokens: number; threshold: number; share: number } } }>(
          'query ($id: ID!) { session(id: $id) { tokenCount continuationSuggested contextUsage { tokens windowTokens threshold share } } }',
          { id: session },
        );
      expect((await read()).session).toMatchObject({ continuationSuggested: false, contextUsage: { tokens: 0, windowTokens, threshold: 0.5, share: 0 } });
      while ((await read()).session.contextUsage.tokens < 0.5 * windowTokens) {
        expect((await read()).session.continuationSuggested).toBe(false);
        await post(account, session, 'ledger entries and receipts '.repeat(50));
      }
      const { session: grown } = await read();
      expect(grown.continuationSuggested).toBe(true);
      expect(grown.contextUsage.tokens).toBe(grown.tokenCount);
      expect(grown.contextUsage.share).toBeCloseTo(grown.tokenCount / windowTokens);
    } finally {
      await quiet.close();
    }
  });
});
