import type { ChatCompletionCreateParams } from 'openai/resources/chat/completions';
import { GraphQLTestClient } from '../helpers/graphql-client';
import { FakeOpenAI, agentOn, startFakeOpenAI } from '../helpers/fake-openai';
import { eventsOf, sessionOf, settledRuns } from '../helpers/runs';
import { startTestServer, TestServer } from '../helpers/test-server';

const CONTINUE_ARGUMENTS = JSON.stringify({
  reason: 'topic_change',
  title: 'Billing questions',
  handoff: { purpose: 'Answer billing questions apart from the garden talk', currentRequest: 'Switch to billing: why was I charged twice?' },
  sources: [],
});

function systemTexts(body: ChatCompletionCreateParams): string[] {
  return body.messages.filter((message) => message.role === 'system').map((message) => String(message.content));
}

describe('approval with an OpenAI-compatible model', () => {
  let fake: FakeOpenAI;
  let server: TestServer;
  let client: GraphQLTestClient;

  beforeAll(async () => {
    fake = await startFakeOpenAI({ apiKey: 'sk-test' });
    server = await startTestServer({
      agent: agentOn(fake),
    });
    client = await server.newAccount('openai approval');
  });
  afterAll(async () => {
    await server.close();
    await fake.close();
  });

  async function askSession(title: string): Promise<string> {
    const { createSession } = await client.data<{ createSession: { id: string } }>(
      'mutation ($t: String!) { createSession(input: { title: $t, continuationApproval: ASK }) { id } }',
      { t: title },
    );
    return createSession.id;
  }

  async function post(sessionId: string, text: string): Promise<void> {
    await client.data('mutation ($s: ID!, $t: String!) { postMessage(input: { sessionId: $s, text: $t }) { __typename } }', { s: sessionId, t: text });
    await settledRuns(client, sessionId);
  }

  async function pending(sessionId: string): Promise<{ id: string; status: string; title: string } | null> {
    const { session } = await client.data<{ session: { pendingProposal: { id: string; status: string; title: string } | null } }>(
      'query ($id: ID!) { session(id: $id) { pendingProposal { id status title } } }',
      { id: sessionId },
    );
    return session.pendingProposal;
  }

  it("the model's continue_session becomes a proposal and ends the turn; rejected, the model is told the note and answers in place", async () => {
    const session = await askSession('Garden');
    fake.reply((body) => {
      const last = body.messages[body.messages.length - 1];
      if (last.role === 'user') return { toolCalls: [{ id: 'call_ask_1', name: 'continue_session', arguments: CONTINUE_ARGUMENTS }] };
      return { text: 'Then we stay with billing right here.' };
    });
    const before = fake.requests.length;
    await post(session, 'Switch to billing: why was I charged twice?');
    // One model call: the proposal ends the turn, as a continuation would.
    expect(fake.requests.length - before).toBe(1);
    const proposal = (await pending(session))!;
    expect(proposal).toMatchObject({ status: 'PENDING', title: 'Billing questions' });
    const events = await eventsOf(client, session);
    expect(events.map((event) => event.kind)).toEqual(['USER_MESSAGE', 'TOOL_CALL', 'TOOL_RESULT', 'SYSTEM']);
    expect(events[1]).toMatchObject({ toolCallId: 'call_ask_1', data: { name: 'continue_session' } });
    expect(events[3].data).toEqual({ role: 'continuation_proposal', proposalId: proposal.id });

    await client.data('mutation ($id: ID!) { rejectContinuation(proposalId: $id, note: "Keep billing in this thread, please.") { status } }', {
      id: proposal.id,
    });
    await settledRuns(client, session);
    const answering = fake.requests[fake.requests.length - 1];
    expect(systemTexts(answering).some((text) => text.includes('Keep billing in this thread, please.'))).toBe(true);
    // The model sees its own call answered: a person was asked.
    const toolMessage = answering.messages.find((message) => message.role === 'tool' && message.tool_call_id === 'call_ask_1');
    expect(String(toolMessage?.content)).toContain('awaiting_approval');
    const after = await eventsOf(client, session);
    expect(after.slice(-2).map((event) => [event.kind, event.kind === 'ASSISTANT_MESSAGE' ? event.text : null])).toEqual([
      ['SYSTEM', null],
      ['ASSISTANT_MESSAGE', 'Then we stay with billing right here.'],
    ]);
    expect((await sessionOf(client, session)).status).toBe('ACTIVE');
  });

  it('a call a continuation would refuse goes back to the model as that refusal, and no proposal is written', async () => {
    const session = await askSession('Refused');
    const missing = JSON.stringify({
      ...JSON.parse(CONTINUE_ARGUMENTS),
      sources: [{ kind: 'session_event', relevance: 'gone', sessionId: session, eventId: '00000000-0000-4000-8000-000000000000' }],
    });
    fake.reply((body) =>
      body.messages[body.messages.length - 1].role === 'user'
        ? { toolCalls: [{ id: 'call_ask_missing', name: 'continue_session', arguments: missing }] }
        : { text: 'I will answer here instead.' },
    );
    await post(session, 'Move this elsewhere.');
    const events = await eventsOf(client, session);
    expect(events.map((event) => event.kind)).toEqual(['USER_MESSAGE', 'TOOL_CALL', 'TOOL_RESULT', 'ASSISTANT_MESSAGE']);
    expect(events[2].text).toContain('SOURCE_NOT_FOUND');
    expect(await pending(session)).toBeNull();
    const [{ count }] = await server.app.database.dataSource.query('SELECT count(*)::int AS count FROM continuation_proposals WHERE session_id = $1', [
      session,
    ]);
    expect(count).toBe(0);
  });

  it("approved, the model's proposal becomes the successor, which the model answers from its compiled context", async () => {
    const session = await askSession('Approved');
    fake.reply((body) =>
      systemTexts(body).some((text) => text.includes('<session_continuation>'))
        ? { text: 'Billing, in its own session.' }
        : { toolCalls: [{ id: 'call_ask_2', name: 'continue_session', arguments: CONTINUE_ARGUMENTS }] },
    );
    await post(session, 'Switch to billing: why was I charged twice?');
    const proposal = (await pending(session))!;
    const { approveContinuation } = await client.data<{ approveContinuation: { edge: { actor: string }; successor: { id: string; title: string } } }>(
      'mutation ($id: ID!) { approveContinuation(input: { proposalId: $id, title: "Billing" }) { ... on ContinueSessionSuccess { edge { actor } successor { id title } } } }',
      { id: proposal.id },
    );
    expect(approveContinuation).toMatchObject({ edge: { actor: 'USER' }, successor: { title: 'Billing' } });
    await settledRuns(client, approveContinuation.successor.id);
    const answered = await eventsOf(client, approveContinuation.successor.id);
    expect(answered.map((event) => event.kind)).toEqual(['CONTINUATION', 'USER_MESSAGE', 'ASSISTANT_MESSAGE']);
    expect(answered[2].text).toBe('Billing, in its own session.');
  });
});
