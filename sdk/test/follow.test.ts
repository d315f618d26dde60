import assert from 'node:assert/strict';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import { createClient, type Client, type ContinuationEdge, type Event, TransportError } from '../src/index.js';
import { startServer, until, type RunningServer } from './server.js';

let server: RunningServer;
let client: Client;

before(async () => {
  server = await startServer();
  client = createClient({ url: server.url, apiKey: server.apiKey, webSocketImpl: WebSocket });
});

after(async () => {
  await client.dispose();
  await server.close();
});

async function post(sessionId: string, text: string): Promise<Event> {
  const result = await client.postMessage({ sessionId, text });
  assert.equal(result.__typename, 'PostMessageSuccess', JSON.stringify(result));
  return result.event;
}

async function transcriptIds(sessionId: string): Promise<string[]> {
  const data = await client.request<{ session: { events: { edges: { node: { id: string } }[] } } }>(
    'query ($id: ID!) { session(id: $id) { events(first: 100) { edges { node { id } } } } }',
    { id: sessionId },
  );
  return data.session.events.edges.map((edge) => edge.node.id);
}

async function continueWithNoSources(sessionId: string) {
  const result = await client.continueSession({
    sessionId,
    idempotencyKey: `continue-${sessionId}`,
    title: 'Second part',
    reason: 'TOPIC_CHANGE',
    handoff: { purpose: 'Plan the second part', currentRequest: 'Carry on with the second part' },
    sources: [],
  });
  assert.equal(result.__typename, 'ContinueSessionSuccess', JSON.stringify(result));
  return result;
}

describe('followConversation', () => {
  it('delivers every event of a session and of its successor once, in order, across a continuation', async () => {
    const session = await client.createSession({ title: 'Trip planning' });
    await post(session.id, 'Where should we go in May?');
    await post(session.id, 'Somewhere with mountains.');
    const seen: Event[] = [];
    const edges: ContinuationEdge[] = [];
    let successorId = '';
    const done = until(() => seen.some((event) => event.text === 'And the budget?'));
    const stop = client.followConversation(session.id, {
      onEvent: (event) => {
        seen.push(event);
        done.check();
      },
      onContinued: (edge) => edges.push(edge),
    });
    await post(session.id, 'Let us talk about the budget instead.');
    successorId = (await continueWithNoSources(session.id)).successor.id;
    await post(successorId, 'And the budget?');
    await done.reached;
    stop();

    assert.deepEqual(
      seen.map((event) => event.id),
      [...(await transcriptIds(session.id)), ...(await transcriptIds(successorId))],
    );
    assert.equal(edges.length, 1);
    assert.equal(edges[0].predecessor.id, session.id);
    assert.equal(edges[0].successor.id, successorId);
    assert.deepEqual(
      seen.map((event) => event.session.id === session.id),
      seen.map((_, index) => index < 4),
    );
  });

  it('resumes after a dropped socket without missing or repeating an event', async () => {
    const sockets: WebSocket[] = [];
    class TrackedWebSocket extends WebSocket {
      constructor(...args: ConstructorParameters<typeof WebSocket>) {
        super(...args);
        sockets.push(this);
      }
    }
    const tracked = createClient({ url: server.url, apiKey: server.apiKey, webSocketImpl: TrackedWebSocket });
    const session = await client.createSession({ title: 'Flaky network' });
    await post(session.id, 'one');
    const seen: Event[] = [];
    let target = 'one';
    let reached = until(() => seen.some((event) => event.text === target));
    const stop = tracked.followConversation(session.id, {
      onEvent: (event) => {
        seen.push(event);
        reached.check();
      },
    });
    await reached.reached;

    sockets[0].terminate();
    await post(session.id, 'two');
    await post(session.id, 'three');
    target = 'three';
    reached = until(() => seen.some((event) => event.text === target), 30_000);
    reached.check();
    await reached.reached;
    await post(session.id, 'four');
    target = 'four';
    reached = until(() => seen.some((event) => event.text === target));
    reached.check();
    await reached.reached;
    stop();
    await tracked.dispose();

    assert.ok(sockets.length >= 2, 'a new socket was opened');
    assert.deepEqual(
      seen.map((event) => event.text),
      ['one', 'two', 'three', 'four'],
    );
    assert.deepEqual(
      seen.map((event) => event.id),
      await transcriptIds(session.id),
    );
  });
});

describe('results and errors', () => {
  it('returns an OperationError as a value, naming where a continued conversation went', async () => {
    const session = await client.createSession({ title: 'Finished' });
    await post(session.id, 'first');
    const { successor } = await continueWithNoSources(session.id);
    const result = await client.postMessage({ sessionId: session.id, text: 'late' });
    assert.equal(result.__typename, 'OperationError');
    assert.equal(result.__typename === 'OperationError' && result.code, 'SESSION_CONTINUED');
    assert.equal(result.__typename === 'OperationError' && result.currentContinuation?.id, successor.id);
  });

  it('lists the lineage origin first', async () => {
    const session = await client.createSession({ title: 'Origin' });
    await post(session.id, 'start');
    const { successor } = await continueWithNoSources(session.id);
    const lineage = await client.lineage(successor.id);
    assert.deepEqual(
      lineage?.map((entry) => [entry.id, entry.continuedFrom === null]),
      [
        [session.id, true],
        [successor.id, false],
      ],
    );
  });

  it('finds earlier events by their words', async () => {
    const session = await client.createSession({ title: 'Search' });
    const event = await post(session.id, 'The lighthouse keeper writes in a green notebook.');
    const found = await client.searchEvents({ query: 'lighthouse notebook', sessionId: session.id });
    assert.equal(found.edges[0]?.node.event.id, event.id);
    assert.match(found.edges[0].node.snippet, /<mark>lighthouse<\/mark>/);
  });

  it('throws a TransportError with the code for a wrong key', async () => {
    const stranger = createClient({ url: server.url, apiKey: 'sck_wrong' });
    await assert.rejects(stranger.createSession({ title: 'x' }), (error: unknown) => {
      assert.ok(error instanceof TransportError);
      assert.equal(error.code, 'UNAUTHENTICATED');
      return true;
    });
  });

  it('throws a TransportError when the server cannot be reached', async () => {
    const nowhere = createClient({ url: 'http://127.0.0.1:1', apiKey: 'sck_any' });
    await assert.rejects(nowhere.lineage('x'), TransportError);
  });
});

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createNetServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => probe.once('listening', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Follows a session with `follower` until it reports an error, which it must within a few seconds. */
async function followError(follower: Client, sessionId: string): Promise<TransportError> {
  let failure: TransportError | undefined;
  const failed = until(() => failure !== undefined, 5_000);
  const stop = follower.followConversation(sessionId, {
    onEvent: () => assert.fail('no event can arrive'),
    onError: (error) => {
      failure = error;
      failed.check();
    },
  });
  try {
    await failed.reached;
  } finally {
    stop();
    await follower.dispose();
  }
  return failure!;
}

describe('connections', () => {
  it('takes the GraphQL endpoint as url as well as the server URL, for requests and subscriptions', async () => {
    const viaEndpoint = createClient({ url: `${server.url}/graphql/`, apiKey: server.apiKey, webSocketImpl: WebSocket });
    const session = await viaEndpoint.createSession({ title: 'Through the endpoint' });
    let seen: Event | undefined;
    const delivered = until(() => seen !== undefined);
    const stop = viaEndpoint.followConversation(session.id, { onEvent: (event) => ((seen = event), delivered.check()) });
    await post(session.id, 'hello');
    await delivered.reached;
    stop();
    await viaEndpoint.dispose();
    assert.equal(seen?.text, 'hello');
    assert.throws(() => createClient({ url: 'localhost:4000', apiKey: server.apiKey }), /url must be the server's http\(s\) URL/);
  });

  it('lists the sessions newest first, a page at a time', async () => {
    const titles = ['List one', 'List two', 'List three'];
    for (const title of titles) await client.createSession({ title });
    const first = await client.listSessions({ first: 2 });
    assert.deepEqual(first.edges.map((edge) => edge.node.title), ['List three', 'List two']);
    assert.equal(first.pageInfo.hasNextPage, true);
    const next = await client.listSessions({ first: 1, after: first.pageInfo.endCursor });
    assert.deepEqual(next.edges.map((edge) => edge.node.title), ['List one']);
    assert.ok(first.totalCount >= 3);
    await assert.rejects(client.listSessions({ first: 101 }), (error: unknown) => error instanceof TransportError && error.code === 'INVALID_INPUT');
  });

  it('reports a socket that cannot be opened through onError: no server at the URL, a wrong path, a refused key', async () => {
    const { id } = await client.createSession({ title: 'Unreachable' });
    const port = await closedPort();
    const nowhere = await followError(createClient({ url: `http://127.0.0.1:${port}`, apiKey: server.apiKey, webSocketImpl: WebSocket }), id);
    assert.match(nowhere.message, new RegExp(`^The WebSocket to ws://127\\.0\\.0\\.1:${port}/graphql could not be opened: .*ECONNREFUSED`));

    const wrongPath = await followError(createClient({ url: `${server.url}/api`, apiKey: server.apiKey, webSocketImpl: WebSocket }), id);
    assert.match(wrongPath.message, /^The WebSocket to ws:\/\/.*\/api\/graphql could not be opened: Unexpected server response: 40\d\.$/);

    const refused = await followError(createClient({ url: server.url, apiKey: 'sck_wrong', webSocketImpl: WebSocket }), id);
    assert.equal(refused.code, 'UNAUTHENTICATED');
    assert.match(refused.message, /refused the API key/);
  });

  it('ends a run stream with a TransportError when its socket cannot be opened', { timeout: 10_000 }, async () => {
    const nowhere = createClient({ url: `http://127.0.0.1:${await closedPort()}`, apiKey: server.apiKey, webSocketImpl: WebSocket });
    await assert.rejects(async () => {
      for await (const chunk of nowhere.streamRun('00000000-0000-4000-8000-000000000000')) assert.fail(`no chunk can arrive: ${chunk}`);
    }, /could not be opened/);
    await nowhere.dispose();
  });
});
