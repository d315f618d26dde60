import { collect, GraphQLTestClient } from '../helpers/graphql-client';
import {
  continuation,
  continueSession,
  createSession,
  postMessage,
  settleRuns,
  subscribed,
} from '../helpers/continuations';
import { startTestServer, TestServer } from '../helpers/test-server';
import { EntityManager } from 'typeorm';
import { EventEntity } from '../../src/modules/conversation/event.entity';
import { EVENT_READS } from '../../src/modules/continuation/continuation.repository';
import { SessionEntity } from '../../src/modules/conversation/session.entity';
import { requeueFailedRun } from '../../src/modules/conversation/run.repository';
import { appendEvents, lockSession } from '../../src/modules/conversation/transcript.repository';
import { EventKind } from '../../src/modules/conversation/transcript';
import { projectedMessages } from '../../src/agent/model-context';
import { countTokens } from '../../src/shared/tokens';

describe('continueSession', () => {
  let server: TestServer;
  let client: GraphQLTestClient;

  beforeAll(async () => {
    server = await startTestServer();
    client = await server.newAccount('continuer');
  });
  afterAll(() => server.close());

  it('creates the successor, edge, manifest, card, banner, replayed message and queued run', async () => {
    const origin = await createSession(client, 'Rethink compaction');
    await postMessage(client, origin, 'What is wrong with rolling summaries?');
    const initiating = await postMessage(client, origin, 'Now draft the continuation proposal.');
    const result = await continueSession(client, continuation(origin, { title: 'Continuation proposal' }));
    expect(result).toMatchObject({
      __typename: 'ContinueSessionSuccess',
      replayed: false,
      edge: { reason: 'TOPIC_CHANGE', actor: 'AGENT' },
      successor: { kind: 'CONTINUATION', status: 'ACTIVE', title: 'Continuation proposal' },
      run: { kind: 'TURN', status: 'QUEUED' },
    });
    const successorId = result.successor!.id;

    const { predecessor, successor } = await client.data<any>(
      `query ($p: ID!, $s: ID!) {
        predecessor: session(id: $p) { status continuations { id } currentContinuation { id }
          events(last: 1) { edges { node { kind text data } } } }
        successor: session(id: $s) { kind origin { id } predecessor { id } continuedFrom { id initiatingEvent { id }
            handoff { purpose currentRequest decisions }
            manifest { predecessorId successorId originId initiatingEventId actor reason tokenBudget tokenCost
              compilerVersion modelVersion hash lineageBlock items { kind status sessionId eventId tokenCount hash }
              context { tokenCount sections { kind text tokenCount } } transferredState { plan pendingRunIds pinnedTools } } }
          runs { status } events(first: 10) { edges { node { kind text data tokenCount replayOf { id text tokenCount } } } } }
      }`,
      { p: origin, s: successorId },
    );
    expect(predecessor.status).toBe('CONTINUED');
    expect(predecessor.continuations).toEqual([{ id: result.edge!.id }]);
    expect(predecessor.currentContinuation).toEqual({ id: successorId });
    const card = predecessor.events.edges[0].node;
    expect(card).toMatchObject({
      kind: 'CONTINUATION',
      text: 'Continued in "Continuation proposal"',
      data: { role: 'transition_card', edgeId: result.edge!.id, successorId, reason: 'TOPIC_CHANGE', carried: 'the current request and 1 decision' },
    });

    expect(successor.origin).toEqual({ id: origin });
    expect(successor.predecessor).toEqual({ id: origin });
    expect(successor.continuedFrom.initiatingEvent).toEqual({ id: initiating });
    expect(successor.continuedFrom.handoff).toEqual({
      purpose: 'Carry on with the new topic',
      currentRequest: 'Write the plan',
      decisions: ['Use PostgreSQL'],
    });
    const manifest = successor.continuedFrom.manifest;
    expect(manifest).toMatchObject({
      predecessorId: origin,
      successorId,
      originId: origin,
      initiatingEventId: initiating,
      actor: 'AGENT',
      reason: 'TOPIC_CHANGE',
      tokenBudget: 8000,
      compilerVersion: 'projection-compiler/4',
      modelVersion: 'o200k_base',
      transferredState: { plan: 'OMIT', pendingRunIds: [], pinnedTools: [] },
    });
    expect(manifest.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(manifest.lineageBlock).toContain(`<predecessor session="${origin}" edge="${result.edge!.id}" />`);
    expect(manifest.lineageBlock).toContain(`<initiating_event id="${initiating}" />`);
    expect(manifest.tokenCost).toBeLessThanOrEqual(manifest.tokenBudget);
    expect(manifest.context.tokenCount).toBe(manifest.tokenCost);
    // Each section's count is its text's: a successor's turns take its instructions' count from them.
    for (const section of manifest.context.sections) expect(section.tokenCount).toBe(countTokens(section.text));
    const [instructions] = projectedMessages(manifest.context.sections, [], new Map(), true);
    expect(instructions.contentTokens).toBe(countTokens(instructions.content!));
    expect(manifest.context.sections.map((section: { kind: string }) => section.kind)).toEqual([
      'SYSTEM',
      'IDENTITY',
      'STATE',
      'LINEAGE',
      'INITIATING_MESSAGE',
      'HANDOFF',
      'RECENT_EXCHANGE',
    ]);
    expect(manifest.items[0]).toMatchObject({ kind: 'SESSION_EVENT', status: 'INCLUDED', eventId: initiating });

    expect(successor.runs).toEqual([{ status: 'QUEUED' }]);
    const [banner, replay] = successor.events.edges.map((edge: { node: unknown }) => edge.node);
    expect(banner).toMatchObject({ kind: 'CONTINUATION', data: { role: 'banner', predecessorId: origin, predecessorTitle: 'Rethink compaction' } });
    expect(replay).toMatchObject({
      kind: 'USER_MESSAGE',
      text: 'Now draft the continuation proposal.',
      replayOf: { id: initiating, text: 'Now draft the continuation proposal.' },
    });
    expect(replay.tokenCount).toBe(replay.replayOf.tokenCount);
    expect(replay.tokenCount).toBeGreaterThan(0);
  });

  it('records a person-confirmed continuation as the USER\'s, and a card that claims only what fit', async () => {
    const origin = await createSession(client, 'asked by a person');
    await postMessage(client, origin, 'please start fresh');
    const handoff = { purpose: 'Start over', currentRequest: 'please start fresh', decisions: [`Use PostgreSQL ${'because it is proven '.repeat(60)}`] };
    const result = await continueSession(client, continuation(origin, { actor: 'USER', reason: 'USER_REQUEST', tokenBudget: 600, handoff }));
    expect(result.edge).toMatchObject({ actor: 'USER', reason: 'USER_REQUEST' });
    const { session } = await client.data<any>(
      'query ($id: ID!) { session(id: $id) { events(last: 1) { edges { node { data } } } } }',
      { id: origin },
    );
    // 600 tokens hold the fixed sections but not this long handoff: its decision was not carried.
    expect(session.events.edges[0].node.data.carried).toBe('the current request');
  });

  it('reads what its projection shows in the round trip that takes the lock: the recent exchange and each cited range', async () => {
    const origin = await createSession(client, 'Storage');
    const question = await postMessage(client, origin, 'Where should receipts live?');
    const decision = await postMessage(client, origin, 'Receipts move to object storage.');
    await settleRuns(server, origin);
    const first = await continueSession(client, continuation(origin, { title: 'Rollout' }));
    const successor = first.successor!.id;
    await settleRuns(server, successor);
    const older = await postMessage(client, successor, 'Plan the copy.');
    await postMessage(client, successor, 'And the rollback.');
    await settleRuns(server, successor);

    const statements: string[] = [];
    const logger = server.app.database.dataSource.logger;
    // A kept statement reaches the logger as its name and text.
    const logQuery = jest
      .spyOn(logger, 'logQuery')
      .mockImplementation((query: string | { text: string }) => void statements.push(typeof query === 'string' ? query : query.text));
    let result;
    try {
      result = await continueSession(
        client,
        continuation(successor, {
          initiatingEventId: older,
          sources: [
            { kind: 'SESSION_EVENTS', relevance: 'the decision, in the origin', sessionId: origin, fromEventId: question, toEventId: decision },
            { kind: 'SESSION_EVENT', relevance: 'the question', sessionId: origin, eventId: question },
          ],
        }),
      );
    } finally {
      logQuery.mockRestore();
    }
    expect(result.__typename).toBe('ContinueSessionSuccess');
    // Reads of event ranges the lock's round trip did not answer would show as a query of their own.
    expect(statements.filter((query) => query.includes(EVENT_READS))).toEqual([]);
    const { session } = await client.data<any>(
      'query ($s: ID!) { session(id: $s) { continuedFrom { manifest { items { kind status } context { sections { kind text } } } } } }',
      { s: result.successor!.id },
    );
    const { items, context } = session.continuedFrom.manifest;
    expect(items.map((item: { kind: string; status: string }) => `${item.kind} ${item.status}`)).toEqual([
      'SESSION_EVENT INCLUDED',
      'SESSION_EVENTS INCLUDED',
      'SESSION_EVENTS INCLUDED',
      'SESSION_EVENT INCLUDED',
    ]);
    const shown = (kind: string) => context.sections.filter((section: { kind: string }) => section.kind === kind).map((section: { text: string }) => section.text).join('\n');
    expect(shown('RECENT_EXCHANGE')).toContain('Receipts move to object storage.');
    expect(shown('RECENT_EXCHANGE')).not.toContain('Plan the copy.');
    expect(shown('EXCERPT')).toContain('Where should receipts live?');
    expect(shown('EXCERPT')).toContain('Receipts move to object storage.');
  });

  it('replays an idempotency key: same successor, replayed true; a different request with it is refused', async () => {
    const origin = await createSession(client);
    await postMessage(client, origin, 'hello');
    const input = continuation(origin);
    const first = await continueSession(client, input);
    const again = await continueSession(client, input);
    expect(again).toMatchObject({ replayed: true, successor: { id: first.successor!.id }, edge: { id: first.edge!.id }, run: { id: first.run!.id } });
    const reused = await continueSession(client, { ...input, title: 'Another title' });
    expect(reused).toMatchObject({ __typename: 'OperationError', code: 'IDEMPOTENCY_KEY_REUSED' });
  });

  it('gives 20 racing identical calls one successor: one creates it, 19 replay it', async () => {
    const origin = await createSession(client);
    await postMessage(client, origin, 'race');
    const input = continuation(origin);
    const results = await Promise.all(Array.from({ length: 20 }, () => continueSession(client, input)));
    expect(new Set(results.map((result) => result.successor?.id)).size).toBe(1);
    expect(results.filter((result) => result.replayed === false)).toHaveLength(1);
    expect(results.filter((result) => result.replayed === true)).toHaveLength(19);
    const [{ count }] = await server.app.database.dataSource.query(
      'SELECT count(*)::int AS count FROM continuation_edges WHERE predecessor_id = $1',
      [origin],
    );
    expect(count).toBe(1);
  });

  it("announces the continuation once, after commit, to sessionContinued subscribers, with the successor's initial run to follow", async () => {
    const origin = await createSession(client);
    await postMessage(client, origin, 'subscribe to me');
    const ws = client.websocket();
    try {
      const bySession = collect<any>(
        ws,
        'subscription ($s: ID) { sessionContinued(sessionId: $s) { edge { id } predecessor { id status } successor { id title } run { id kind } } }',
        { s: origin },
      );
      await subscribed(server, 'SESSION_CONTINUED', origin);
      const result = await continueSession(client, continuation(origin, { title: 'Announced' }));
      await bySession.until(1);
      await postMessage(client, result.successor!.id, 'a later message changes nothing for this subscription');
      expect(bySession.errors).toEqual([]);
      expect(bySession.values).toEqual([
        {
          sessionContinued: {
            edge: { id: result.edge!.id },
            predecessor: { id: origin, status: 'CONTINUED' },
            successor: { id: result.successor!.id, title: 'Announced' },
            run: { id: result.run!.id, kind: 'TURN' },
          },
        },
      ]);
    } finally {
      await ws.dispose();
    }
  });

  it('executes the announcement once for every subscriber of one selection, each getting the same result', async () => {
    const origin = await createSession(client);
    await postMessage(client, origin, 'watched by three');
    const sockets = [client.websocket(), client.websocket(), client.websocket()];
    const metric = async () => {
      const text = await (await fetch(`${server.url}/metrics`)).text();
      const count = (delivery: string) => Number(new RegExp(`^graphql_subscription_results_total\\{delivery="${delivery}"\\} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
      return { executed: count('executed'), shared: count('shared') };
    };
    try {
      const watchers = sockets.map((ws) =>
        collect<any>(ws, 'subscription ($s: ID) { sessionContinued(sessionId: $s) { edge { id } successor { id title } } }', { s: origin }),
      );
      const deadline = Date.now() + 5_000;
      while (server.app.subscriptions.listenerCount('SESSION_CONTINUED', origin) < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      const before = await metric();
      const result = await continueSession(client, continuation(origin, { title: 'Shared' }));
      await Promise.all(watchers.map((watcher) => watcher.until(1)));
      const after = await metric();
      for (const watcher of watchers) {
        expect(watcher.values).toEqual([{ sessionContinued: { edge: { id: result.edge!.id }, successor: { id: result.successor!.id, title: 'Shared' } } }]);
      }
      expect({ executed: after.executed - before.executed, shared: after.shared - before.shared }).toEqual({ executed: 1, shared: 2 });
    } finally {
      await Promise.all(sockets.map((ws) => ws.dispose()));
    }
  });

  describe('returning to a continued session', () => {
    it('refuses a plain message with SESSION_CONTINUED naming the current continuation, and appends nothing', async () => {
      const origin = await createSession(client);
      await postMessage(client, origin, 'first');
      const result = await continueSession(client, continuation(origin));
      const { postMessage: refused, session } = await client.data<any>(
        `mutation ($s: ID!) { postMessage(input: { sessionId: $s, text: "late" }) {
          ... on OperationError { code currentContinuation { id } } } }`,
        { s: origin },
      ).then(async (data) => ({
        ...data,
        session: (await client.data<any>('query ($s: ID!) { session(id: $s) { eventCount } }', { s: origin })).session,
      }));
      expect(refused).toEqual({ code: 'SESSION_CONTINUED', currentContinuation: { id: result.successor!.id } });
      expect(session.eventCount).toBe(2);
    });

    it('with branch: true, starts a new continuation by the user that receives the message', async () => {
      const origin = await createSession(client, 'Trunk');
      const first = await postMessage(client, origin, 'first');
      await continueSession(client, continuation(origin));
      const { postMessage: branched } = await client.data<any>(
        `mutation ($s: ID!) { postMessage(input: { sessionId: $s, text: "another direction", branch: true, clientMessageId: "b-1" }) {
          ... on PostMessageSuccess { event { id text seq } session { id kind title continuedFrom { actor reason initiatingEvent { id }
            manifest { items { kind relevance sessionId fromEventId status } } handoff { currentRequest } } } run { status } } } }`,
        { s: origin },
      );
      expect(branched.event).toMatchObject({ text: 'another direction', seq: 2 });
      expect(branched.session).toMatchObject({ kind: 'CONTINUATION', title: 'Branch of Trunk' });
      expect(branched.session.continuedFrom).toMatchObject({
        actor: 'USER',
        reason: 'USER_REQUEST',
        initiatingEvent: { id: branched.event.id },
        handoff: { currentRequest: 'another direction' },
      });
      expect(branched.session.continuedFrom.manifest.items).toContainEqual(
        expect.objectContaining({ kind: 'SESSION_EVENTS', sessionId: origin, fromEventId: first }),
      );
      expect(branched.run).toEqual({ status: 'QUEUED' });
      const { session } = await client.data<any>(
        'query ($s: ID!) { session(id: $s) { continuations { id } currentContinuation { id } } }',
        { s: origin },
      );
      expect(session.continuations).toHaveLength(2);
      expect(session.currentContinuation).toEqual({ id: branched.session.id });

      const replayed = await client.data<any>(
        `mutation ($s: ID!) { postMessage(input: { sessionId: $s, text: "another direction", branch: true, clientMessageId: "b-1" }) {
          ... on PostMessageSuccess { event { id } session { id } } } }`,
        { s: origin },
      );
      expect(replayed.postMessage).toEqual({ event: { id: branched.event.id }, session: { id: branched.session.id } });
    });
  });
});

const onPostgres = process.env.TEST_DATABASE_URL ? describe : describe.skip;

onPostgres('continueSession waiting for its predecessor', () => {
  let server: TestServer;
  let client: GraphQLTestClient;

  beforeAll(async () => {
    server = await startTestServer();
    client = await server.newAccount('patient');
  });
  afterAll(() => server.close());

  /** Holds the session's lock in a transaction of its own until `write` is done, while a continuation waits for it. */
  async function whileContinuationWaits(origin: string, write: (manager: EntityManager, session: SessionEntity) => Promise<void>) {
    const { dataSource } = server.app.database;
    const [{ account_id: accountId }] = await dataSource.query('SELECT account_id FROM sessions WHERE id = $1', [origin]);
    const writer = dataSource.createQueryRunner();
    await writer.connect();
    await writer.startTransaction();
    try {
      const session = (await lockSession(writer.manager, accountId, origin))!;
      const continued = continueSession(client, continuation(origin));
      const deadline = Date.now() + 10_000;
      while ((await dataSource.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`))[0].n === 0) {
        if (Date.now() > deadline) throw new Error('The continuation never waited for the lock');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await write(writer.manager, session);
      await writer.commitTransaction();
      return await continued;
    } finally {
      if (writer.isTransactionActive) await writer.rollbackTransaction();
      await writer.release();
    }
  }

  it('continues from what the writer it waited for committed, not from what it saw before the wait', async () => {
    const origin = await createSession(client, 'busy session');
    await postMessage(client, origin, 'the first request');
    let newer: EventEntity | undefined;
    const result = await whileContinuationWaits(origin, async (manager, session) => {
      [newer] = await appendEvents(manager, session, [{ kind: EventKind.USER_MESSAGE, text: 'a newer request' }]);
    });
    expect(result.__typename).toBe('ContinueSessionSuccess');
    const { session: successor } = await client.data<any>(
      'query ($s: ID!) { session(id: $s) { continuedFrom { initiatingEvent { id } } events(first: 2) { edges { node { text replayOf { id } } } } } }',
      { s: result.successor!.id },
    );
    expect(successor.continuedFrom.initiatingEvent).toEqual({ id: newer!.id });
    expect(successor.events.edges[1].node).toEqual({ text: 'a newer request', replayOf: { id: newer!.id } });
  });

  it('refuses when the writer it waited for queued a failed turn again', async () => {
    const origin = await createSession(client, 'retried meanwhile');
    await postMessage(client, origin, 'try this');
    const { dataSource } = server.app.database;
    const [failed] = await dataSource.query(
      `INSERT INTO runs (id, account_id, session_id, kind, status, error, attempt, created_at, updated_at, finished_at)
       SELECT gen_random_uuid(), account_id, id, 'TURN', 'FAILED', 'The model is overloaded.', 1, now(), now(), now() FROM sessions WHERE id = $1
       RETURNING id, account_id`,
      [origin],
    );
    const result = await whileContinuationWaits(origin, async (manager) => {
      expect(await requeueFailedRun(manager, failed.account_id, failed.id)).not.toBeNull();
    });
    expect(result).toMatchObject({ __typename: 'OperationError', code: 'TURN_IN_PROGRESS' });
  });
});
