import { appendEvents, lockSession } from '../../src/modules/conversation/transcript.repository';
import { GraphQLTestClient } from '../helpers/graphql-client';
import { continuation, continueSession, createSession, postMessage, settleRuns } from '../helpers/continuations';
import { startTestServer, TestServer } from '../helpers/test-server';

describe('continueSession refuses, writing nothing', () => {
  let server: TestServer;
  let client: GraphQLTestClient;
  let origin: string;
  let firstMessage: string;

  const counts = async () => {
    const [row] = await server.app.database.dataSource.query(
      `SELECT (SELECT count(*) FROM sessions WHERE account_id = a.id)::int AS sessions,
              (SELECT count(*) FROM events WHERE account_id = a.id)::int AS events,
              (SELECT count(*) FROM continuation_edges WHERE account_id = a.id)::int AS edges,
              (SELECT count(*) FROM projection_manifests WHERE account_id = a.id)::int AS manifests,
              (SELECT count(*) FROM runs WHERE account_id = a.id)::int AS runs
       FROM accounts a WHERE a.name = 'validator'`,
    );
    return row;
  };

  beforeAll(async () => {
    server = await startTestServer();
    client = await server.newAccount('validator');
    origin = await createSession(client, 'validated');
    firstMessage = await postMessage(client, origin, 'the first message');
    await postMessage(client, origin, 'the second message');
  });
  afterAll(() => server.close());

  async function expectRefusal(input: Record<string, unknown>, code: string, path?: string[]) {
    const before = await counts();
    const result = await continueSession(client, input);
    expect(result).toMatchObject({ __typename: 'OperationError', code });
    expect(result.message).toBeTruthy();
    if (path) expect(result.details?.map((detail) => detail.path)).toContainEqual(path);
    expect(await counts()).toEqual(before);
    return result;
  }

  it('an unknown or foreign predecessor: NOT_FOUND', async () => {
    const stranger = await server.newAccount('stranger');
    const theirs = await createSession(stranger);
    await postMessage(stranger, theirs, 'mine');
    await expectRefusal(continuation(theirs), 'NOT_FOUND', ['input', 'sessionId']);
    await expectRefusal(continuation('8f1d3a52-8d0e-4d8e-9b36-5d0f3f2f0c11'), 'NOT_FOUND');
  });

  it.each([
    ['an empty purpose', { handoff: { purpose: ' ', currentRequest: 'x' } }, ['input', 'handoff', 'purpose']],
    ['an empty idempotency key', { idempotencyKey: '' }, ['input', 'idempotencyKey']],
    ['a budget below 64', { tokenBudget: 10 }, ['input', 'tokenBudget']],
    [
      'a source with fields of another kind',
      { sources: [{ kind: 'SESSION_EVENT', relevance: 'r', sessionId: 'x', eventId: 'y', url: 'https://example.org' }] },
      ['input', 'sources', '0', 'url'],
    ],
    ['a source missing a field', { sources: [{ kind: 'SESSION_EVENTS', relevance: 'r', sessionId: 'x', fromEventId: 'y' }] }, ['input', 'sources', '0', 'toEventId']],
    ['an unknown pinned tool', { transfer: { pinnedTools: ['rm_rf'] } }, ['input', 'transfer', 'pinnedTools']],
    ['an empty title', { title: '  ' }, ['input', 'title']],
    ['the runtime-only SYSTEM actor', { actor: 'SYSTEM' }, ['input', 'actor']],
  ])('malformed input (%s): INVALID_INPUT', async (_name, overrides, path) => {
    await expectRefusal(continuation(origin, overrides), 'INVALID_INPUT', path);
  });

  it('an initiating event that is not a user message of the predecessor: INVALID_INPUT', async () => {
    const other = await createSession(client, 'other');
    const foreignMessage = await postMessage(client, other, 'elsewhere');
    await expectRefusal(continuation(origin, { initiatingEventId: foreignMessage }), 'INVALID_INPUT', ['input', 'initiatingEventId']);
  });

  it('a budget too small for the never-dropped sections: INVALID_INPUT naming a minimum that then works', async () => {
    const result = await expectRefusal(continuation(origin, { tokenBudget: 100 }), 'INVALID_INPUT', ['input', 'tokenBudget']);
    const minimum = Number(/Must be at least (\d+)/.exec(result.details?.[0].message ?? '')?.[1]);
    expect(minimum).toBeGreaterThan(100);
    const retried = await continueSession(client, continuation(origin, { tokenBudget: minimum }));
    expect(retried).toMatchObject({ __typename: 'ContinueSessionSuccess' });
    const { session } = await client.data<any>(
      'query ($id: ID!) { session(id: $id) { continuedFrom { manifest { tokenCost tokenBudget context { sections { kind } } } } } }',
      { id: retried.successor!.id },
    );
    expect(session.continuedFrom.manifest.tokenCost).toBeLessThanOrEqual(minimum);
  });

  it('a source that does not exist in the account: SOURCE_NOT_FOUND', async () => {
    const stranger = await server.newAccount('source-owner');
    const theirs = await createSession(stranger);
    const theirEvent = await postMessage(stranger, theirs, 'not yours');
    await expectRefusal(
      continuation(origin, { sources: [{ kind: 'SESSION_EVENT', relevance: 'r', sessionId: theirs, eventId: theirEvent }] }),
      'SOURCE_NOT_FOUND',
      ['input', 'sources', '0'],
    );
    await expectRefusal(
      continuation(origin, { sources: [{ kind: 'SESSION_EVENT', relevance: 'r', sessionId: origin, eventId: '2f0e6c39-5c4d-4b8e-8f3a-1d2c3b4a5f60' }] }),
      'SOURCE_NOT_FOUND',
    );
    await expectRefusal(continuation(origin, { sources: [{ kind: 'MEMORY', relevance: 'r', path: '/notes' }] }), 'SOURCE_NOT_FOUND');
  });

  it('a tool call without its result: TURN_IN_PROGRESS', async () => {
    const session = await createSession(client, 'mid-tool');
    await postMessage(client, session, 'look something up');
    // Stands in for the agent runtime, which records tool calls and their results.
    const append = async (draft: Parameters<typeof appendEvents>[2][number]) => {
      const { dataSource } = server.app.database;
      const [{ account_id: accountId }] = await dataSource.query('SELECT account_id FROM sessions WHERE id = $1', [session]);
      await dataSource.transaction(async (manager) => {
        await appendEvents(manager, (await lockSession(manager, accountId, session))!, [draft]);
      });
    };
    await append({ kind: 'TOOL_CALL', text: null, data: { name: 'read_events' }, toolCallId: 'call-1' });
    await expectRefusal(continuation(session), 'TURN_IN_PROGRESS');
    await append({ kind: 'TOOL_RESULT', text: 'done', toolCallId: 'call-1' });
    expect((await continueSession(client, continuation(session))).__typename).toBe('ContinueSessionSuccess');
  });

  it('a turn still running in the predecessor: TURN_IN_PROGRESS', async () => {
    const session = await createSession(client, 'busy');
    await postMessage(client, session, 'go');
    const first = await continueSession(client, continuation(session));
    const successor = first.successor!.id;
    await postMessage(client, successor, 'and now?');
    await expectRefusal(continuation(successor), 'TURN_IN_PROGRESS', ['input', 'sessionId']);
    await settleRuns(server, successor);
    expect((await continueSession(client, continuation(successor))).__typename).toBe('ContinueSessionSuccess');
  });

  it('the same key for another predecessor, even racing: the unique constraint lets one win', async () => {
    const a = await createSession(client, 'a');
    const b = await createSession(client, 'b');
    await postMessage(client, a, 'a');
    await postMessage(client, b, 'b');
    const results = await Promise.all([
      continueSession(client, continuation(a, { idempotencyKey: 'shared-key' })),
      continueSession(client, continuation(b, { idempotencyKey: 'shared-key' })),
    ]);
    expect(results.map((result) => result.__typename).sort()).toEqual(['ContinueSessionSuccess', 'OperationError']);
    expect(results.find((result) => result.__typename === 'OperationError')?.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('accepts an exact event range as a source and writes one edge', async () => {
    const before = await counts();
    const result = await continueSession(
      client,
      continuation(origin, {
        sources: [{ kind: 'SESSION_EVENTS', relevance: 'the start', sessionId: origin, fromEventId: firstMessage, toEventId: firstMessage }],
      }),
    );
    expect(result.__typename).toBe('ContinueSessionSuccess');
    expect((await counts()).edges).toBe(before.edges + 1);
  });
});

describe('continuation rate limits', () => {
  it('refuses a 4th continuation in a row without a new user message, and a burst over the account rate', async () => {
    const server = await startTestServer({
      continuationPolicy: { streakLimit: 3, perAccountPerMinute: 4, defaultTokenBudget: 8000 },
    });
    try {
      const client = await server.newAccount('hasty');
      let head = await createSession(client);
      await postMessage(client, head, 'start');
      for (let i = 0; i < 3; i += 1) {
        const result = await continueSession(client, continuation(head));
        expect(result.__typename).toBe('ContinueSessionSuccess');
        head = result.successor!.id;
        await settleRuns(server, head);
      }
      expect(await continueSession(client, continuation(head))).toMatchObject({ code: 'RATE_LIMITED' });
      await postMessage(client, head, 'a new message from the user resets the streak');
      const fourth = await continueSession(client, continuation(head));
      expect(fourth.__typename).toBe('ContinueSessionSuccess');

      const other = await createSession(client);
      await postMessage(client, other, 'one more');
      expect(await continueSession(client, continuation(other))).toMatchObject({ code: 'RATE_LIMITED' });
    } finally {
      await server.close();
    }
  });
});
