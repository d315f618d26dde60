import { collect, GraphQLTestClient } from '../helpers/graphql-client';
import { createSession } from '../helpers/continuations';
import { FakeOpenAI, agentOn, startFakeOpenAI } from '../helpers/fake-openai';
import { startTestServer, TestServer } from '../helpers/test-server';

const WORDS = Array.from({ length: 60 }, (_, index) => `secretword${index}`).join(' ');

async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('erasing a session while its turn is running', () => {
  let fake: FakeOpenAI;
  let server: TestServer;
  let client: GraphQLTestClient;

  beforeAll(async () => {
    fake = await startFakeOpenAI({ apiKey: 'sk-erase' });
    server = await startTestServer({ agent: agentOn(fake, { apiKey: 'sk-erase', model: 'erase-model', timeoutMs: 20_000 }) });
    client = await server.newAccount('running');
  });
  afterAll(async () => {
    await server.close();
    await fake.close();
  });

  it('stops the turn: its output stream ends, and nothing it produced is written or kept', async () => {
    fake.reply(() => ({ text: WORDS, pauseMs: 40 }));
    const sessionId = await createSession(client, 'Talkative');
    const { postMessage } = await client.data<{ postMessage: { run: { id: string } } }>(
      'mutation ($s: ID!) { postMessage(input: { sessionId: $s, text: "Talk for a long time." }) { ... on PostMessageSuccess { run { id } } } }',
      { s: sessionId },
    );
    const runId = postMessage.run.id;
    const ws = client.websocket();
    const output = collect<{ runOutput: { text: string } }>(ws, 'subscription ($r: ID!) { runOutput(runId: $r) { text } }', { r: runId });
    await output.until(2, 15_000);

    const { eraseSession } = await client.data<{ eraseSession: { __typename: string } }>(
      'mutation ($s: ID!) { eraseSession(input: { sessionId: $s, scope: SESSION, reason: "Stop and forget" }) { __typename } }',
      { s: sessionId },
    );
    expect(eraseSession.__typename).toBe('ErasureReceipt');
    await waitFor(() => output.completed);
    // The worker lets go of the run once it finds its lease gone.
    const worker = server.app.worker as unknown as { inFlight: Map<string, unknown> };
    await waitFor(() => !worker.inFlight.has(runId));

    const { session } = await client.data<{ session: { eventCount: number; events: { edges: { node: { kind: string; text: string | null; erasedAt: string | null } }[] }; runs: { id: string; status: string; output: string | null }[] } }>(
      'query ($s: ID!) { session(id: $s) { eventCount events(first: 10) { edges { node { kind text erasedAt } } } runs { id status output } } }',
      { s: sessionId },
    );
    expect(session.eventCount).toBe(1);
    expect(session.events.edges.map((edge) => edge.node)).toEqual([{ kind: 'USER_MESSAGE', text: null, erasedAt: expect.any(String) }]);
    expect(session.runs).toEqual([{ id: runId, status: 'CANCELLED', output: null }]);
    const [run] = await server.app.database.dataSource.query(`SELECT output, lease_owner FROM runs WHERE id = $1`, [runId]);
    expect(run).toEqual({ output: null, lease_owner: null });
    await ws.dispose();
  });
});
