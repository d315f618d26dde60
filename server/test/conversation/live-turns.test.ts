import type { ChatCompletionCreateParams } from 'openai/resources/chat/completions';
import { DEFAULT_AGENT_CONFIG } from '../../src/config';
import { collect, GraphQLTestClient } from '../helpers/graphql-client';
import { createSession } from '../helpers/continuations';
import { FakeOpenAI, agentOn, startFakeOpenAI } from '../helpers/fake-openai';
import { eventsOf, runsOf, settledRuns } from '../helpers/runs';
import { startTestServer, TestServer } from '../helpers/test-server';

const POST = `mutation ($s: ID!, $t: String!) { postMessage(input: { sessionId: $s, text: $t }) { ... on PostMessageSuccess { run { id } } } }`;
const OUTPUT = 'subscription ($r: ID!) { runOutput(runId: $r) { runId offset text } }';
const CANCEL = 'mutation ($r: ID!) { cancelRun(runId: $r) { id status output } }';

interface Chunk {
  runId: string;
  offset: number;
  text: string;
}

async function post(client: GraphQLTestClient, sessionId: string, text: string): Promise<string> {
  return (await client.data<{ postMessage: { run: { id: string } } }>(POST, { s: sessionId, t: text })).postMessage.run.id;
}

async function runById(client: GraphQLTestClient, sessionId: string, runId: string) {
  const { session } = await client.data<{ session: { runs: { id: string; status: string; output: string | null }[] } }>(
    'query ($s: ID!) { session(id: $s) { runs { id status output } } }',
    { s: sessionId },
  );
  return session.runs.find((run) => run.id === runId)!;
}

async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The chunks in order from offset 0 with no gap or overlap, joined. */
function joined(chunks: Chunk[], from = 0): string {
  let text = '';
  for (const chunk of chunks) {
    expect(chunk.offset).toBe(from + text.length);
    text += chunk.text;
  }
  return text;
}

function lastUserText(body: ChatCompletionCreateParams): string {
  const users = body.messages.filter((message) => message.role === 'user');
  return String(users[users.length - 1]?.content ?? '');
}

const WORDS = Array.from({ length: 40 }, (_, index) => `word${index}`).join(' ');

describe('live turns with the built-in agent', () => {
  let server: TestServer;
  let client: GraphQLTestClient;

  beforeAll(async () => {
    server = await startTestServer({ agent: { ...DEFAULT_AGENT_CONFIG, pollMs: 50 } });
    client = await server.newAccount('builtin');
  });
  afterAll(() => server.close());

  it('streams the answer whose chunks, joined by offset, are the recorded answer, and completes when the run ends', async () => {
    const session = await createSession(client, 'Streaming');
    const runId = await post(client, session, `Please remember that ${WORDS.slice(0, 100)}`);
    const ws = client.websocket();
    const output = collect<{ runOutput: Chunk }>(ws, OUTPUT, { r: runId });
    await waitFor(() => output.completed || output.errors.length > 0);
    expect(output.errors).toEqual([]);
    const [answer] = (await eventsOf(client, session)).filter((event) => event.kind === 'ASSISTANT_MESSAGE');
    expect(answer.text).toMatch(/^Noted: "Please remember/);
    expect(joined(output.values.map((value) => value.runOutput))).toBe(answer.text);
    expect(output.values.every((value) => value.runOutput.runId === runId)).toBe(true);
    expect(answer.data).toBeNull();
    expect(await runById(client, session, runId)).toMatchObject({ status: 'SUCCEEDED', output: answer.text });
    await ws.dispose();
  });

  it("refuses to cancel a finished run, and another account's run is not found, by cancelRun or runOutput", async () => {
    const session = await createSession(client, 'Finished');
    const runId = await post(client, session, 'Short one.');
    await settledRuns(client, session);
    const refused = await client.request(CANCEL, { r: runId });
    expect(refused.errors?.[0]).toMatchObject({
      message: 'Only a queued or running run can be cancelled: it succeeded, and its answer stands.',
      extensions: { code: 'INVALID_INPUT' },
    });

    const other = await server.newAccount('other');
    const hidden = await other.request(CANCEL, { r: runId });
    expect(hidden.errors?.[0]).toMatchObject({ extensions: { code: 'NOT_FOUND' } });
    const ws = other.websocket();
    const output = collect<{ runOutput: Chunk }>(ws, OUTPUT, { r: runId });
    await waitFor(() => output.errors.length > 0 || output.completed);
    expect(output.values).toEqual([]);
    expect(JSON.stringify(output.errors)).toMatch(/No such run/);
    await ws.dispose();
    expect((await runById(client, session, runId)).status).toBe('SUCCEEDED');
  });
});

describe('live turns with an OpenAI-compatible model that streams', () => {
  let fake: FakeOpenAI;
  let server: TestServer;
  let client: GraphQLTestClient;

  beforeAll(async () => {
    fake = await startFakeOpenAI({ apiKey: 'sk-live' });
    server = await startTestServer({
      agent: agentOn(fake, { apiKey: 'sk-live', model: 'live-model', timeoutMs: 20_000 }),
    });
    client = await server.newAccount('openai');
  });
  afterAll(async () => {
    await server.close();
    await fake.close();
  });

  it('passes the deltas on in batches in order, and a late joiner that read Run.output misses nothing', async () => {
    fake.reply(() => ({ text: WORDS, pauseMs: 15 }));
    const session = await createSession(client, 'Deltas');
    const runId = await post(client, session, 'Stream a long answer.');
    const ws = client.websocket();
    const early = collect<{ runOutput: Chunk }>(ws, OUTPUT, { r: runId });
    await early.until(2, 10_000);

    // The late joiner reads what there is so far, then subscribes and drops what it already has.
    const sofar = (await runById(client, session, runId)).output ?? '';
    expect(sofar.length).toBeGreaterThan(0);
    const late = collect<{ runOutput: Chunk }>(ws, OUTPUT, { r: runId });
    await waitFor(() => early.completed && late.completed);
    let lateText = sofar;
    for (const { runOutput: chunk } of late.values) {
      if (chunk.offset + chunk.text.length > lateText.length) lateText += chunk.text.slice(lateText.length - chunk.offset);
    }
    const [answer] = (await eventsOf(client, session)).filter((event) => event.kind === 'ASSISTANT_MESSAGE');
    expect(answer.text).toBe(WORDS);
    const earlyChunks = early.values.map((value) => value.runOutput);
    expect(joined(earlyChunks)).toBe(WORDS);
    // Forty words over about 600 ms arrive in a handful of batches, not one per word, nor one in all.
    expect(earlyChunks.length).toBeGreaterThan(2);
    expect(earlyChunks.length).toBeLessThan(40);
    expect(lateText).toBe(WORDS);
    expect(joined(late.values.map((value) => value.runOutput))).toBe(WORDS);
    await ws.dispose();
  });

  it('a tool call streamed in pieces is run, and the text of both model calls is the answer', async () => {
    fake.reply((body) => {
      const last = body.messages[body.messages.length - 1];
      if (last.role === 'tool') return { text: 'It says hello.' };
      return { toolCalls: [{ id: 'call_walk', name: 'walk_lineage', arguments: JSON.stringify({ direction: 'up' }) }] };
    });
    const session = await createSession(client, 'Tools');
    const runId = await post(client, session, 'Where did this start?');
    const ws = client.websocket();
    const output = collect<{ runOutput: Chunk }>(ws, OUTPUT, { r: runId });
    await waitFor(() => output.completed);
    const events = await eventsOf(client, session);
    expect(events.map((event) => event.kind)).toEqual(['USER_MESSAGE', 'TOOL_CALL', 'TOOL_RESULT', 'ASSISTANT_MESSAGE']);
    expect(events[1].data).toMatchObject({ name: 'walk_lineage', arguments: '{"direction":"up"}' });
    expect(joined(output.values.map((value) => value.runOutput))).toBe('It says hello.');
    expect(events[3].text).toBe('It says hello.');
    await ws.dispose();
  });

  it("walks this session's lineage for a walk_lineage call with an empty sessionId", async () => {
    fake.reply((body) => {
      const last = body.messages[body.messages.length - 1];
      if (last.role === 'tool') return { text: 'Walked.' };
      return { toolCalls: [{ id: 'call_walk_empty', name: 'walk_lineage', arguments: JSON.stringify({ sessionId: '' }) }] };
    });
    const session = await createSession(client, 'Empty id');
    const runId = await post(client, session, 'Where did this start?');
    const ws = client.websocket();
    const output = collect<{ runOutput: Chunk }>(ws, OUTPUT, { r: runId });
    await waitFor(() => output.completed);
    await ws.dispose();
    const result = (await eventsOf(client, session)).find((event) => event.kind === 'TOOL_RESULT')!;
    expect(JSON.parse(result.text!)).toEqual([expect.objectContaining({ sessionId: session, title: 'Empty id', continuedFrom: null })]);
  });

  it('cancels a queued turn at once: it never runs, and the turn before it answers', async () => {
    fake.reply((body) => (lastUserText(body) === 'First, slowly.' ? { hold: true } : { text: 'unexpected' }));
    const session = await createSession(client, 'Queue');
    const first = await post(client, session, 'First, slowly.');
    const second = await post(client, session, 'Second, never mind.');
    await waitFor(() => fake.requests.some((body) => lastUserText(body) === 'First, slowly.'));
    const cancelled = await client.data<{ cancelRun: { id: string; status: string; output: string | null } }>(CANCEL, { r: second });
    expect(cancelled.cancelRun).toEqual({ id: second, status: 'CANCELLED', output: null });
    fake.releaseHeld({ text: 'First answered.' });
    const runs = await settledRuns(client, session);
    expect(runs.map((run) => [run.id, run.status])).toEqual(
      expect.arrayContaining([
        [first, 'SUCCEEDED'],
        [second, 'CANCELLED'],
      ]),
    );
    expect(fake.requests.some((body) => lastUserText(body) === 'Second, never mind.')).toBe(false);
    const answers = (await eventsOf(client, session)).filter((event) => event.kind === 'ASSISTANT_MESSAGE');
    expect(answers.map((event) => event.text)).toEqual(['First answered.']);
  });

  it('cancels a running turn: the model call stops, what it produced is its answer marked cancelled, and the next turn runs', async () => {
    fake.reply((body) => (lastUserText(body) === 'Talk for a long time.' ? { text: WORDS, pauseMs: 40 } : { text: 'Next answered.' }));
    const session = await createSession(client, 'Stop');
    const ws = client.websocket();
    const updates = collect<{ runUpdated: { id: string; status: string } }>(ws, 'subscription ($s: ID!) { runUpdated(sessionId: $s) { id status } }', { s: session });
    await waitFor(() => server.app.subscriptions.listenerCount('RUN_UPDATED', session) > 0);
    const runId = await post(client, session, 'Talk for a long time.');
    const next = await post(client, session, 'And then this.');
    const output = collect<{ runOutput: Chunk }>(ws, OUTPUT, { r: runId });
    await output.until(2, 10_000);

    const cancelled = await client.data<{ cancelRun: { status: string } }>(CANCEL, { r: runId });
    expect(cancelled.cancelRun.status).toBe('CANCELLED');
    await waitFor(() => output.completed);
    const runs = await settledRuns(client, session);
    expect(runs.find((run) => run.id === runId)!.status).toBe('CANCELLED');
    expect(runs.find((run) => run.id === next)!.status).toBe('SUCCEEDED');

    const answers = (await eventsOf(client, session)).filter((event) => event.kind === 'ASSISTANT_MESSAGE');
    const produced = joined(output.values.map((value) => value.runOutput));
    expect(answers.map((event) => [event.text, event.data])).toEqual([
      [produced, { cancelled: true }],
      ['Next answered.', null],
    ]);
    expect(produced.length).toBeGreaterThan(0);
    expect(WORDS.startsWith(produced)).toBe(true);
    expect(produced.length).toBeLessThan(WORDS.length);
    expect((await runById(client, session, runId)).output).toBe(produced);
    await waitFor(() => updates.values.filter((value) => value.runUpdated.id === next && value.runUpdated.status === 'SUCCEEDED').length > 0);
    const ofRun = updates.values.filter((value) => value.runUpdated.id === runId).map((value) => value.runUpdated.status);
    expect(ofRun[0]).toBe('QUEUED');
    expect(ofRun).toContain('RUNNING');
    expect(ofRun[ofRun.length - 1]).toBe('CANCELLED');
    await ws.dispose();
  });

  it('cancelling delegated work stops the child, and the delegating turn gets a result saying it was cancelled', async () => {
    fake.reply((body) => {
      const last = body.messages[body.messages.length - 1];
      if (lastUserText(body) === 'Count the stars.') return { hold: true };
      if (last.role === 'tool') return { text: 'Delegated; waiting.' };
      return { toolCalls: [{ id: 'call_stars', name: 'delegate', arguments: JSON.stringify({ task: 'Count the stars.' }) }] };
    });
    const session = await createSession(client, 'Delegating');
    await post(client, session, 'Get the stars counted.');
    await waitFor(() => fake.requests.some((body) => lastUserText(body) === 'Count the stars.'));
    const delegated = (await runsOf(client, session)).find((run) => run.kind === 'DELEGATED')!;
    expect(delegated.status).toBe('RUNNING');

    await client.data(CANCEL, { r: delegated.id });
    await waitFor(async () => (await eventsOf(client, session)).some((event) => event.kind === 'TOOL_RESULT' && event.toolCallId === 'call_stars' && event.text !== null && /cancelled/.test(event.text) && (event.data as { runId?: string }).runId === delegated.id));
    const result = (await eventsOf(client, session)).find((event) => event.kind === 'TOOL_RESULT' && /cancelled/.test(event.text ?? ''))!;
    expect(result).toMatchObject({ text: 'The delegated work was cancelled before it produced anything.', data: { name: 'delegate', cancelled: true } });
    const runs = await settledRuns(client, session);
    expect(runs.find((run) => run.id === delegated.id)!.status).toBe('CANCELLED');
    expect(await eventsOf(client, delegated.childSession!.id)).toEqual([expect.objectContaining({ kind: 'USER_MESSAGE', text: 'Count the stars.' })]);
  });
});
