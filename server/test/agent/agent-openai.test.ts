import type { ChatCompletionCreateParams } from 'openai/resources/chat/completions';
import { AGENT_TOOLS } from '../../src/shared/agent-tools';
import { GraphQLTestClient } from '../helpers/graphql-client';
import { continuation, continueSession, createSession } from '../helpers/continuations';
import { FakeOpenAI, agentOn, startFakeOpenAI } from '../helpers/fake-openai';
import { eventsOf, runsOf, sessionOf, settledRuns } from '../helpers/runs';
import { startTestServer, TestServer } from '../helpers/test-server';

const POST = `mutation ($s: ID!, $t: String!) { postMessage(input: { sessionId: $s, text: $t }) {
  ... on PostMessageSuccess { event { id } run { id } } ... on OperationError { code message } } }`;

type Message = ChatCompletionCreateParams['messages'][number];

function lastUserText(body: ChatCompletionCreateParams): string {
  const users = body.messages.filter((message) => message.role === 'user');
  return String(users[users.length - 1]?.content ?? '');
}

function lastMessage(body: ChatCompletionCreateParams): Message {
  return body.messages[body.messages.length - 1];
}

const CONTINUE_ARGUMENTS = JSON.stringify({
  reason: 'topic_change',
  title: 'Billing questions',
  handoff: { purpose: 'Answer billing questions apart from the garden talk', currentRequest: 'Switch to billing: why was I charged twice?' },
  sources: [],
});

describe('the runtime with an OpenAI-compatible model', () => {
  let fake: FakeOpenAI;
  let server: TestServer;
  let client: GraphQLTestClient;

  beforeAll(async () => {
    fake = await startFakeOpenAI({ apiKey: 'sk-test' });
    server = await startTestServer({
      agent: agentOn(fake),
    });
    client = await server.newAccount('openai');
  });
  afterAll(async () => {
    await server.close();
    await fake.close();
  });
  beforeEach(() => fake.reply(() => ({ text: 'ok' })));

  async function post(sessionId: string, text: string): Promise<{ event: { id: string }; run: { id: string } }> {
    return (await client.data<{ postMessage: { event: { id: string }; run: { id: string } } }>(POST, { s: sessionId, t: text })).postMessage;
  }

  it('answers with the model and offers it continue_session, the recall tools and delegate, with the context usage', async () => {
    fake.reply(() => ({ text: 'Roses like sun.' }));
    const session = await createSession(client, 'Garden');
    const before = fake.requests.length;
    await post(session, 'Where should the roses go?');
    await settledRuns(client, session);
    const events = await eventsOf(client, session);
    expect(events.map((event) => [event.kind, event.text])).toEqual([
      ['USER_MESSAGE', 'Where should the roses go?'],
      ['ASSISTANT_MESSAGE', 'Roses like sun.'],
    ]);
    const request = fake.requests[before];
    expect(request.model).toBe('test-model');
    const offered = request.tools!.map((tool) => (tool as { function: { name: string } }).function.name);
    expect(offered).toEqual(['continue_session', 'read_events', 'search_history', 'read_manifest', 'read_resource', 'read_memory', 'read_attachment', 'walk_lineage', 'delegate']);
    // A successor's identity names the same tools.
    expect(AGENT_TOOLS).toEqual(offered);
    expect(request.messages[0]).toMatchObject({ role: 'system' });
    expect(String(request.messages[0].content)).toMatch(/Context usage: \d+ of 32768 tokens \(0%\); a continuation is advised from 80%/);
    expect(request.messages.slice(1)).toEqual([{ role: 'user', content: 'Where should the roses go?' }]);
  });

  it('a continue_session call creates the successor, which answers from exactly its compiled context; a replayed call returns the same successor', async () => {
    const session = await createSession(client, 'Garden chat');
    fake.reply(() => ({ text: 'Tulips in spring.' }));
    await post(session, 'When do tulips bloom?');
    await settledRuns(client, session);

    fake.reply((body) => {
      if (String(body.messages[1]?.content ?? '').startsWith('You are continuing work')) return { text: 'Answered in the successor.' };
      return { toolCalls: [{ id: 'call_switch_1', name: 'continue_session', arguments: CONTINUE_ARGUMENTS }] };
    });
    const firstRequest = fake.requests.length;
    const { run } = await post(session, 'Switch to billing: why was I charged twice?');
    await settledRuns(client, session);
    const predecessor = await sessionOf(client, session);
    expect(predecessor.status).toBe('CONTINUED');
    const [edge] = predecessor.continuations;
    expect(edge).toMatchObject({ reason: 'TOPIC_CHANGE', actor: 'AGENT', successor: { title: 'Billing questions' } });
    await settledRuns(client, edge.successor.id);

    // No answer in the predecessor: the turn ended with the transition card.
    expect((await eventsOf(client, session)).slice(-2).map((event) => event.kind)).toEqual(['USER_MESSAGE', 'CONTINUATION']);
    expect((await eventsOf(client, edge.successor.id)).map((event) => [event.kind, event.text])).toEqual([
      ['CONTINUATION', 'Continued from "Garden chat"'],
      ['USER_MESSAGE', 'Switch to billing: why was I charged twice?'],
      ['ASSISTANT_MESSAGE', 'Answered in the successor.'],
    ]);

    // The successor's first request: the runtime's instructions, then the manifest's compiled context and nothing else.
    const successorRequest = fake.requests.slice(firstRequest).find((body) => String(body.messages[1]?.content ?? '').startsWith('You are continuing work'))!;
    const sections = edge.manifest.context.sections;
    const initiating = sections.find((section) => section.kind === 'INITIATING_MESSAGE')!;
    expect(successorRequest.messages.slice(1)).toEqual([
      { role: 'system', content: sections.filter((section) => section !== initiating).map((section) => section.text).join('\n\n') },
      { role: 'user', content: initiating.text },
    ]);

    // The worker that made the call was lost before it could record the end of the turn: the run is taken up again.
    await server.app.database.dataSource.query(`UPDATE runs SET status = 'QUEUED', lease_owner = NULL, lease_expires_at = NULL WHERE id = $1`, [run.id]);
    server.app.worker!.wake();
    await settledRuns(client, session);
    const after = await sessionOf(client, session);
    expect(after.continuations.map((continuation) => continuation.id)).toEqual([edge.id]);
    expect((await runsOf(client, session)).find((candidate) => candidate.id === run.id)).toMatchObject({ status: 'SUCCEEDED', attempt: 2 });
    expect(await runsOf(client, edge.successor.id)).toHaveLength(1);
  });

  it('a refused continue_session goes back to the model, which answers here', async () => {
    const session = await createSession(client, 'Refusals');
    fake.reply((body) => {
      const last = lastMessage(body);
      if (last.role === 'tool') return { text: `I stay here: ${String(last.content)}` };
      return { toolCalls: [{ id: 'call_bad_1', name: 'continue_session', arguments: JSON.stringify({ reason: 'sideways', title: 'x' }) }] };
    });
    await post(session, 'Move on, please.');
    await settledRuns(client, session);
    expect((await sessionOf(client, session)).status).toBe('ACTIVE');
    const events = await eventsOf(client, session);
    expect(events.map((event) => event.kind)).toEqual(['USER_MESSAGE', 'TOOL_CALL', 'TOOL_RESULT', 'ASSISTANT_MESSAGE']);
    expect(events[2]).toMatchObject({ toolCallId: 'call_bad_1', data: { name: 'continue_session', error: true } });
    expect(events[2].text).toContain('INVALID_INPUT');
    expect(events[3].text).toContain('I stay here');
  });

  it('recall tools return exact events, recorded as a tool call and its result', async () => {
    const session = await createSession(client, 'Recall');
    fake.reply(() => ({ text: 'first answer' }));
    await post(session, 'Remember the code word: heliotrope.');
    await settledRuns(client, session);
    fake.reply((body) => {
      const last = lastMessage(body);
      if (last.role === 'tool') return { text: `Recalled: ${String(last.content).includes('heliotrope') ? 'heliotrope' : 'nothing'}` };
      return { toolCalls: [{ id: 'call_read_1', name: 'read_events', arguments: JSON.stringify({ sessionId: session, fromSeq: 1, toSeq: 1 }) }] };
    });
    await post(session, 'What was the code word?');
    await settledRuns(client, session);
    const events = await eventsOf(client, session);
    expect(events.slice(3).map((event) => event.kind)).toEqual(['TOOL_CALL', 'TOOL_RESULT', 'ASSISTANT_MESSAGE']);
    expect(JSON.parse(events[4].text!)).toMatchObject({ events: [{ seq: 1, kind: 'USER_MESSAGE', text: 'Remember the code word: heliotrope.' }] });
    expect(events[5].text).toBe('Recalled: heliotrope');
  });

  it('search_history finds an earlier event of the lineage by its words, and reading around it recalls the source the projection left out', async () => {
    const origin = await createSession(client, 'Keys');
    fake.reply(() => ({ text: 'noted' }));
    await post(origin, `The signing keys are rotated every ninety days. ${'Each rotation is logged with the old and the new key id. '.repeat(150)}`);
    await settledRuns(client, origin);
    await post(origin, 'Good, and the audit log stays for a year.');
    await settledRuns(client, origin);
    const [fact] = await eventsOf(client, origin);
    const result = await continueSession(
      client,
      continuation(origin, {
        title: 'Audit',
        // Too small for the long message: the cited event is left out, to be recalled.
        tokenBudget: 900,
        sources: [{ kind: 'SESSION_EVENT', sessionId: origin, eventId: fact.id, relevance: 'the rotation rule' }],
      }),
    );
    const successor = result.successor!.id;
    await settledRuns(client, successor);
    fake.reply((body) => {
      const last = lastMessage(body);
      if (last.role === 'tool' && String(last.content).includes('"hits"')) {
        const [hit] = JSON.parse(String(last.content)).hits;
        return { toolCalls: [{ id: 'call_read_2', name: 'read_events', arguments: JSON.stringify({ sessionId: hit.sessionId, fromSeq: hit.seq, toSeq: hit.seq + 1 }) }] };
      }
      if (last.role === 'tool') return { text: String(last.content).includes('ninety days') ? 'Every ninety days.' : 'not found' };
      return { toolCalls: [{ id: 'call_search_1', name: 'search_history', arguments: JSON.stringify({ query: 'how often do we rotate the signing keys?' }) }] };
    });
    await post(successor, 'How often do we rotate the signing keys?');
    await settledRuns(client, successor);
    const events = await eventsOf(client, successor);
    const searched = JSON.parse(events.find((event) => event.kind === 'TOOL_RESULT')!.text!);
    expect(searched.hits[0]).toMatchObject({ sessionId: origin, eventId: fact.id, seq: 1 });
    expect(events[events.length - 1].text).toBe('Every ninety days.');
    const { session } = await client.data<{ session: { continuedFrom: { manifest: { items: { eventId: string | null; status: string; recallCount: number }[] } } } }>(
      'query ($id: ID!) { session(id: $id) { continuedFrom { manifest { items { eventId status recallCount } } } } }',
      { id: successor },
    );
    expect(session.continuedFrom.manifest.items.find((item) => item.eventId === fact.id)).toMatchObject({ status: 'OMITTED', recallCount: 1 });
  });

  it("records a model's answer holding text the database cannot store, mended, instead of failing the turn", async () => {
    fake.reply(() => ({ text: 'A NUL \u0000 and a lone \ud800 surrogate.' }));
    const session = await createSession(client, 'Odd bytes');
    await post(session, 'Say something odd.');
    const [run] = await settledRuns(client, session);
    expect(run.status).toBe('SUCCEEDED');
    const events = await eventsOf(client, session);
    expect(events[1]).toMatchObject({ kind: 'ASSISTANT_MESSAGE', text: 'A NUL \ufffd and a lone \ufffd surrogate.' });
  });

  it('a provider error fails the run with a readable message, and retryRun recovers it', async () => {
    const session = await createSession(client, 'Flaky model');
    fake.reply(() => ({ status: 500, message: 'The model is overloaded.' }));
    const { run } = await post(session, 'Are you there?');
    const [failed] = await settledRuns(client, session);
    expect(failed).toMatchObject({ id: run.id, status: 'FAILED', error: 'Model provider answered 500: The model is overloaded.', attempt: 1 });
    expect((await eventsOf(client, session)).map((event) => event.kind)).toEqual(['USER_MESSAGE']);

    fake.reply((body) => ({ text: `Yes: ${lastUserText(body)}` }));
    const { retryRun } = await client.data<{ retryRun: { id: string; status: string; error: string | null } }>(
      'mutation ($id: ID!) { retryRun(runId: $id) { id status error } }',
      { id: run.id },
    );
    expect(retryRun).toEqual({ id: run.id, status: 'QUEUED', error: null });
    const [recovered] = await settledRuns(client, session);
    expect(recovered).toMatchObject({ id: run.id, status: 'SUCCEEDED', error: null, attempt: 2 });
    expect((await eventsOf(client, session)).map((event) => [event.kind, event.text])).toEqual([
      ['USER_MESSAGE', 'Are you there?'],
      ['ASSISTANT_MESSAGE', 'Yes: Are you there?'],
    ]);
  });

  it('retryRun refuses a failed run whose session was continued since, naming the continuation', async () => {
    const session = await createSession(client, 'Moved on');
    fake.reply(() => ({ status: 500, message: 'The model is overloaded.' }));
    const { run } = await post(session, 'Are you there?');
    await settledRuns(client, session);
    const { successor } = await continueSession(client, continuation(session, { title: 'Fresh start' }));
    const refused = await client.request('mutation ($id: ID!) { retryRun(runId: $id) { id } }', { id: run.id });
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'SESSION_CONTINUED', currentContinuationId: successor!.id });
    expect((await runsOf(client, session)).map((each) => each.status)).toEqual(['FAILED']);
    // The successor's first turn asks the model too: it ends here, not in a later test's requests.
    await settledRuns(client, successor!.id);
  });

  it("a successor's failed run keeps the edge and the successor, shows the error, and retryRun answers there", async () => {
    const session = await createSession(client, 'Orders');
    const opensSuccessor = (body: ChatCompletionCreateParams) => String(body.messages[1]?.content ?? '').startsWith('You are continuing work');
    fake.reply((body) =>
      opensSuccessor(body)
        ? { status: 503, message: 'No capacity right now.' }
        : { toolCalls: [{ id: 'call_orders_1', name: 'continue_session', arguments: CONTINUE_ARGUMENTS }] },
    );
    await post(session, 'Switch to billing: why was I charged twice?');
    await settledRuns(client, session);
    const [edge] = (await sessionOf(client, session)).continuations;
    const [failed] = await settledRuns(client, edge.successor.id);
    expect(failed).toMatchObject({ kind: 'TURN', status: 'FAILED', error: 'Model provider answered 503: No capacity right now.' });
    expect((await sessionOf(client, edge.successor.id)).status).toBe('ACTIVE');

    fake.reply((body) => (opensSuccessor(body) ? { text: 'Refund issued.' } : { text: 'unexpected' }));
    await client.data('mutation ($id: ID!) { retryRun(runId: $id) { id } }', { id: failed.id });
    const [retried] = await settledRuns(client, edge.successor.id);
    expect(retried).toMatchObject({ id: failed.id, status: 'SUCCEEDED' });
    expect((await eventsOf(client, edge.successor.id)).map((event) => event.kind)).toEqual(['CONTINUATION', 'USER_MESSAGE', 'ASSISTANT_MESSAGE']);
    expect((await sessionOf(client, session)).continuations.map((continuation) => continuation.id)).toEqual([edge.id]);
  });

  it('forkSession starts an alternative path whose model context is the source history up to the fork point, by reference', async () => {
    const source = await createSession(client, 'Itinerary');
    fake.reply((body) => ({ text: `re: ${lastUserText(body)}` }));
    await post(source, 'Day one: Lisbon.');
    await settledRuns(client, source);
    await post(source, 'Day two: Porto.');
    await settledRuns(client, source);
    const events = await eventsOf(client, source);
    const { forkSession } = await client.data<{
      forkSession: { id: string; kind: string; title: string; eventCount: number; forkedFrom: { id: string; seq: number } };
    }>('mutation ($e: ID!) { forkSession(input: { eventId: $e }) { id kind title eventCount forkedFrom { id seq } } }', { e: events[1].id });
    expect(forkSession).toMatchObject({ kind: 'FORK', title: 'Itinerary (fork at #2)', eventCount: 0, forkedFrom: { id: events[1].id, seq: 2 } });

    const before = fake.requests.length;
    await post(forkSession.id, 'Day two: Seville instead.');
    await settledRuns(client, forkSession.id);
    expect(fake.requests[before].messages.slice(1)).toEqual([
      { role: 'user', content: 'Day one: Lisbon.' },
      { role: 'assistant', content: 're: Day one: Lisbon.' },
      { role: 'user', content: 'Day two: Seville instead.' },
    ]);
    expect(await eventsOf(client, source)).toHaveLength(4);

    const stranger = await server.newAccount('stranger');
    const refused = await stranger.request('mutation ($e: ID!) { forkSession(input: { eventId: $e }) { id } }', { e: events[1].id });
    expect(refused.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});
