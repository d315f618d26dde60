import { DEFAULT_CONTINUATION_POLICY } from '../../src/modules/continuation/continuations.service';
import { createSession } from '../helpers/continuations';
import { GraphQLTestClient } from '../helpers/graphql-client';
import { ModelStandIn, startModelStandIn } from '../helpers/model-stand-in';
import { agentOnStandIn, converse, omissionNote, showsWholeOrSaysSo, Turn, userTexts, workingMessage } from '../helpers/pressure-conversation';
import { eventsOf, runsOf } from '../helpers/runs';
import { startTestServer, TestServer } from '../helpers/test-server';

jest.setTimeout(600_000);

const EDGES = `query ($id: ID!) { session(id: $id) { continuations { reason actor handoff { currentRequest cautions } manifest { tokenBudget tokenCost } } } }`;

interface EdgeView {
  reason: string;
  actor: string;
  handoff: { currentRequest: string; cautions: string[] };
  manifest: { tokenBudget: number; tokenCost: number };
}

async function edgeOf(client: GraphQLTestClient, sessionId: string): Promise<EdgeView> {
  const { session } = await client.data<{ session: { continuations: EdgeView[] } }>(EDGES, { id: sessionId });
  return session.continuations[0];
}

async function failedRuns(client: GraphQLTestClient, turns: Turn[]): Promise<number> {
  const sessions = new Set(turns.flatMap((turn) => [turn.sessionId, ...(turn.continuedTo ? [turn.continuedTo] : [])]));
  const runs = (await Promise.all([...sessions].map((id) => runsOf(client, id)))).flat();
  return runs.filter((run) => run.status === 'FAILED').length;
}

const messages = (count: number, from = 0) => Array.from({ length: count }, (_, index) => workingMessage(from + index));

describe('a real model that never continues by itself, in an 8,000-token window', () => {
  let model: ModelStandIn;
  let server: TestServer;
  let client: GraphQLTestClient;

  beforeAll(async () => {
    model = await startModelStandIn({ contextTokens: 8_000, replyTokens: 60 });
    server = await startTestServer({ agent: agentOnStandIn(model, 8_000, 0.7) });
    client = await server.newAccount('pressure');
  });
  afterAll(async () => {
    await server.close();
    await model.close();
  });

  it('keeps 80 messages inside the window, continuing with CONTEXT_PRESSURE each time the threshold is passed, with no run failed and nothing cut silently', async () => {
    const origin = await createSession(client, 'Harbour works');
    const start = model.requests.length;
    // The threshold is passed about every 11 messages, so 80 continue the conversation six times or more.
    const turns = await converse(client, model, origin, messages(80));
    const requests = model.requests.slice(start);

    expect(requests.filter((request) => request.overContext || request.outcome !== 'answered')).toEqual([]);
    expect(requests.every((request) => request.completionCap !== null)).toBe(true);
    const continued = turns.filter((turn) => turn.continuedTo);
    expect(continued.length).toBeGreaterThanOrEqual(3);
    for (const turn of continued) {
      const edge = await edgeOf(client, turn.sessionId);
      expect(edge).toMatchObject({ reason: 'CONTEXT_PRESSURE', actor: 'SYSTEM', handoff: { currentRequest: turn.text } });
      expect(edge.manifest.tokenCost).toBeLessThanOrEqual(edge.manifest.tokenBudget);
      // The draft is asked of the model with the tool forced; the successor answers the message.
      expect(turn.requests[0].forced).toEqual({ kind: 'tool', name: 'continue_session' });
      expect(turn.requests[turn.requests.length - 1].forced).toBeNull();
    }
    expect(await failedRuns(client, turns)).toBe(0);
    // Every answering request holds its session's whole own transcript, or lists what it leaves out.
    for (const turn of turns.filter((candidate) => !candidate.continuedTo)) {
      expect(turn.requests).toHaveLength(1);
      expect(showsWholeOrSaysSo(turn, turn.requests[0])).toBe(true);
    }
  });

  it('writes a minimal handoff itself when the model drafts wrong twice, and continues', async () => {
    const origin = await createSession(client, 'Dredging');
    model.invalidDrafts(2, 'missing-required');
    const turns = await converse(client, model, origin, messages(40, 300));
    const first = turns.find((turn) => turn.continuedTo)!;
    expect(first).toBeDefined();
    const forced = first.requests.filter((request) => request.forced !== null);
    expect(forced).toHaveLength(2);
    // The second draft is asked with the first one's problems as the call's result.
    expect(JSON.stringify(forced[1].body.messages[forced[1].body.messages.length - 1])).toContain('INVALID_INPUT');
    const edge = await edgeOf(client, first.sessionId);
    expect(edge).toMatchObject({ reason: 'CONTEXT_PRESSURE', actor: 'SYSTEM', handoff: { currentRequest: first.text } });
    expect(edge.handoff.cautions.join(' ')).toMatch(/runtime wrote this handoff/);
    expect(await failedRuns(client, turns)).toBe(0);
  });

  it('in an ASK session proposes instead, and answers the next messages in place with what it leaves out listed', async () => {
    const session = await createSession(client, 'Crane inspections');
    await client.data('mutation ($s: ID!) { setContinuationApproval(sessionId: $s, approval: ASK) { id } }', { s: session });
    const start = model.requests.length;
    const turns = await converse(client, model, session, messages(36, 600));
    const requests = model.requests.slice(start);
    expect(requests.filter((request) => request.overContext || request.outcome !== 'answered')).toEqual([]);
    expect(turns.every((turn) => turn.continuedTo === null)).toBe(true);
    const { session: view } = await client.data<{ session: { pendingProposal: { reason: string; handoff: { currentRequest: string } } | null } }>(
      'query ($id: ID!) { session(id: $id) { pendingProposal { reason handoff { currentRequest } } } }',
      { id: session },
    );
    expect(view.pendingProposal?.reason).toBe('CONTEXT_PRESSURE');
    // One proposal only; the turns after it answer with the budgeted context.
    expect(requests.filter((request) => request.forced !== null).length).toBeGreaterThanOrEqual(1);
    const proposedAt = turns.findIndex((turn) => turn.requests.some((request) => request.forced !== null));
    const later = turns.slice(proposedAt + 1);
    expect(later.length).toBeGreaterThan(5);
    expect(later.every((turn) => turn.requests.length === 1 && turn.requests[0].forced === null)).toBe(true);
    expect(later.every((turn) => showsWholeOrSaysSo(turn, turn.requests[0]))).toBe(true);
    expect(omissionNote(later[later.length - 1].requests[0])).toMatch(/events 1-\d+ \(\d+ tokens\)/);
    expect(await failedRuns(client, turns)).toBe(0);
  });

  it('carries an excerpt of the left-out history holding the old fact a new message asks about, marked with its seq range, shown once', async () => {
    const session = await createSession(client, 'Lighthouse keeping');
    await client.data('mutation ($s: ID!) { setContinuationApproval(sessionId: $s, approval: ASK) { id } }', { s: session });
    const fact = 'The spare key for the lighthouse generator is hidden inside the red lobster pot behind the chandlery.';
    const question = 'Where is the spare key for the lighthouse generator hidden?';
    const turns = await converse(client, model, session, [fact, ...messages(36, 2000), question]);
    const request = turns[turns.length - 1].requests[0];
    expect(request.overContext).toBe(false);
    expect(omissionNote(request)).toMatch(/events 1-\d+/);
    expect(userTexts(request)).not.toContain(fact);
    const excerpts = request.body.messages.filter((message) => message.role === 'system' && String(message.content).startsWith('Excerpts of the history'));
    expect(excerpts).toHaveLength(1);
    expect(excerpts[0].content).toContain(`[session ${session}, events 1-`);
    expect(excerpts[0].content).toContain(fact);
    // Never an event twice: the fact once in the whole request, and no seq shown in two excerpts.
    expect(JSON.stringify(request.body.messages).split('red lobster pot').length - 1).toBe(1);
    const seqs = [...String(excerpts[0].content).matchAll(/\(seq (\d+)\)/g)].map((match) => match[1]);
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(await failedRuns(client, turns)).toBe(0);
  });
});

describe('a fork of a conversation longer than the window', () => {
  let model: ModelStandIn;
  let server: TestServer;
  let client: GraphQLTestClient;

  beforeAll(async () => {
    model = await startModelStandIn({ contextTokens: 8_000, replyTokens: 60 });
    server = await startTestServer({ agent: agentOnStandIn(model, 8_000, 0.7) });
    client = await server.newAccount('forks');
  });
  afterAll(async () => {
    await server.close();
    await model.close();
  });

  it("lists the inherited history it leaves out, naming the source session, and never goes over the window", async () => {
    const source = await createSession(client, 'Tide tables');
    // ASK keeps the source in one session however long it grows.
    await client.data('mutation ($s: ID!) { setContinuationApproval(sessionId: $s, approval: ASK) { id } }', { s: source });
    await converse(client, model, source, messages(32, 1500));
    const events = await eventsOf(client, source);
    const { forkSession } = await client.data<{ forkSession: { id: string } }>('mutation ($e: ID!) { forkSession(input: { eventId: $e }) { id } }', {
      e: events[events.length - 1].id,
    });
    const before = model.requests.length;
    const turns = await converse(client, model, forkSession.id, [workingMessage(1600)]);
    // The fork's own requests: all of them, or those before its successor's when the runtime continued it.
    const requests = model.requests.slice(before, turns[0].continuedTo ? -1 : undefined);
    expect(requests.length).toBeGreaterThanOrEqual(1);
    for (const request of requests) {
      expect(request.overContext).toBe(false);
      expect(omissionNote(request)).toContain(`session ${source}, events 1-`);
      expect(userTexts(request)).toContain(workingMessage(1600));
    }
    expect(await failedRuns(client, turns)).toBe(0);
  });
});

describe('a model whose real context (5,000) is below the configured window (12,000)', () => {
  let model: ModelStandIn;
  let server: TestServer;
  let client: GraphQLTestClient;

  beforeAll(async () => {
    model = await startModelStandIn({ contextTokens: 5_000, replyTokens: 60 });
    server = await startTestServer({ agent: agentOnStandIn(model, 12_000, 0.7) });
    client = await server.newAccount('misjudged');
  });
  afterAll(async () => {
    await server.close();
    await model.close();
  });

  it('takes the limit from the refusal, fits the request again and goes on: no run fails', async () => {
    const origin = await createSession(client, 'Berths');
    const turns = await converse(client, model, origin, messages(40, 900));
    const refused = model.requests.filter((request) => request.outcome === 'refused');
    expect(refused.length).toBeGreaterThanOrEqual(1);
    // Once told, the runtime fits every later request to the stated limit.
    const firstRefusal = model.requests.indexOf(refused[0]);
    expect(model.requests.slice(firstRefusal + 1).filter((request) => request.overContext)).toEqual([]);
    expect(await failedRuns(client, turns)).toBe(0);
    expect(turns.some((turn) => turn.continuedTo)).toBe(true);
  });
});

describe('a continuation refused by the rate limit', () => {
  let model: ModelStandIn;
  let server: TestServer;
  let client: GraphQLTestClient;

  beforeAll(async () => {
    model = await startModelStandIn({ contextTokens: 8_000, replyTokens: 60 });
    server = await startTestServer({
      agent: agentOnStandIn(model, 8_000, 0.7),
      continuationPolicy: { ...DEFAULT_CONTINUATION_POLICY, perAccountPerMinute: 1 },
    });
    client = await server.newAccount('limited');
  });
  afterAll(async () => {
    await server.close();
    await model.close();
  });

  it('answers in place with the budgeted context, every request inside the window, no run failed', async () => {
    const origin = await createSession(client, 'Quay walls');
    const turns = await converse(client, model, origin, messages(45, 1200));
    expect(turns.filter((turn) => turn.continuedTo)).toHaveLength(1);
    const successorTurns = turns.slice(turns.findIndex((turn) => turn.continuedTo) + 1);
    // Past the successor's threshold the continuation is refused and the message answered here; the
    // next messages, within the rate's minute, are answered here without asking for a draft.
    const refusedAt = successorTurns.findIndex((turn) => turn.requests.some((request) => request.forced !== null));
    expect(refusedAt).toBeGreaterThanOrEqual(0);
    expect(successorTurns[refusedAt].requests[successorTurns[refusedAt].requests.length - 1].forced).toBeNull();
    const after = successorTurns.slice(refusedAt + 1);
    expect(after.length).toBeGreaterThan(5);
    expect(after.every((turn) => turn.requests.length === 1 && turn.requests[0].forced === null)).toBe(true);
    expect(successorTurns.every((turn) => showsWholeOrSaysSo(turn, turn.requests[turn.requests.length - 1]))).toBe(true);
    expect(omissionNote(after[after.length - 1].requests[0])).not.toBeNull();
    expect(model.requests.filter((request) => request.overContext || request.outcome !== 'answered')).toEqual([]);
    expect(await failedRuns(client, turns)).toBe(0);
  });
});
