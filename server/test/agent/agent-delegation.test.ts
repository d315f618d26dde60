import { DEFAULT_AGENT_CONFIG } from '../../src/config';
import { collect, GraphQLTestClient } from '../helpers/graphql-client';
import { continuation, continueSession, createSession, postMessage, subscribed } from '../helpers/continuations';
import { eventsOf, runsOf } from '../helpers/runs';
import { startTestServer, TestServer } from '../helpers/test-server';

describe('delegated work and continuation', () => {
  let server: TestServer;
  let client: GraphQLTestClient;

  beforeAll(async () => {
    // No worker loop: the test steps the queue itself, so delegated work stays pending as long as it needs.
    server = await startTestServer({ agent: { ...DEFAULT_AGENT_CONFIG, provider: 'builtin', concurrency: 0 } });
    client = await server.newAccount('delegation');
  });
  afterAll(() => server.close());

  const step = () => server.app.worker!.runNext();

  async function delegatingSession() {
    const session = await createSession(client, 'Warehouse');
    await postMessage(client, session, '/delegate count the crates in aisle 4');
    expect(await step()).toBe(true);
    const [turn, delegated] = await runsOf(client, session);
    expect(turn).toMatchObject({ kind: 'TURN', status: 'SUCCEEDED' });
    expect(delegated).toMatchObject({ kind: 'DELEGATED', status: 'QUEUED', toolCallId: expect.any(String) });
    return { session, delegated };
  }

  it('delegate starts a CHILD session with its own run; the result comes back as the tool result', async () => {
    const { session, delegated } = await delegatingSession();
    const { session: parent } = await client.data<{ session: { children: { id: string; kind: string; parent: { id: string } }[] } }>(
      'query ($id: ID!) { session(id: $id) { children { id kind parent { id } } } }',
      { id: session },
    );
    expect(parent.children).toEqual([{ id: delegated.childSession!.id, kind: 'CHILD', parent: { id: session } }]);
    expect((await eventsOf(client, session)).map((event) => event.kind)).toEqual(['USER_MESSAGE', 'TOOL_CALL', 'ASSISTANT_MESSAGE']);

    expect(await step()).toBe(true);
    const child = await eventsOf(client, delegated.childSession!.id);
    expect(child.map((event) => [event.kind, event.text])).toEqual([
      ['USER_MESSAGE', 'count the crates in aisle 4'],
      ['ASSISTANT_MESSAGE', 'Done: count the crates in aisle 4'],
    ]);
    const events = await eventsOf(client, session);
    expect(events[events.length - 1]).toMatchObject({ kind: 'TOOL_RESULT', toolCallId: delegated.toolCallId, text: 'Done: count the crates in aisle 4' });
    expect((await runsOf(client, session))[1]).toMatchObject({ id: delegated.id, status: 'SUCCEEDED' });
  });

  it('a continuation must transfer pending delegated work; transferred, its report goes to the successor under the same run and call', async () => {
    const { session, delegated } = await delegatingSession();
    const refused = await continueSession(client, continuation(session, { reason: 'USER_REQUEST' }));
    expect(refused).toMatchObject({ __typename: 'OperationError', code: 'PENDING_RUNS_NOT_TRANSFERRED' });

    const continued = await continueSession(client, continuation(session, { reason: 'USER_REQUEST', transfer: { pendingRuns: [delegated.id] } }));
    expect(continued.__typename).toBe('ContinueSessionSuccess');
    const successor = continued.successor!.id;
    expect(await runsOf(client, session)).toHaveLength(1);
    expect((await runsOf(client, successor)).map((run) => [run.id, run.kind, run.toolCallId])).toEqual([
      [delegated.id, 'DELEGATED', delegated.toolCallId],
      [continued.run!.id, 'TURN', null],
    ]);

    const ws = client.websocket();
    const reports = collect<{ sessionEvents: { kind: string; toolCallId: string } }>(
      ws,
      'subscription ($s: ID!) { sessionEvents(sessionId: $s) { kind toolCallId } }',
      { s: successor },
    );
    await subscribed(server, 'SESSION_EVENT', successor);
    expect(await step()).toBe(true);
    await reports.until(1);
    expect(reports.values[0].sessionEvents).toEqual({ kind: 'TOOL_RESULT', toolCallId: delegated.toolCallId });
    expect((await eventsOf(client, session)).some((event) => event.kind === 'TOOL_RESULT')).toBe(false);
    expect((await runsOf(client, successor))[0]).toMatchObject({ id: delegated.id, status: 'SUCCEEDED' });

    // Then the successor's own turn answers the request it was opened with.
    expect(await step()).toBe(true);
    expect((await eventsOf(client, successor)).map((event) => event.kind)).toEqual(['CONTINUATION', 'USER_MESSAGE', 'TOOL_RESULT', 'ASSISTANT_MESSAGE']);
    expect(await step()).toBe(false);
    await ws.dispose();
  });
});
