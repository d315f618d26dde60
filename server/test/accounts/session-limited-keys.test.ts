import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startTestServer, TestServer } from '../helpers/test-server';
import { collect, GraphQLTestClient } from '../helpers/graphql-client';
import { createKey, CreatedKey } from '../helpers/api-keys';
import { continuation, continueSession, createSession, postMessage, settleRuns, subscribed } from '../helpers/continuations';

const SEARCH = `query ($q: String!, $s: ID, $scope: SearchScope) { searchEvents(query: $q, sessionId: $s, scope: $scope) {
  totalCount edges { node { event { session { id } text } } } } }`;

describe('a key limited to sessions', () => {
  let server: TestServer;
  let owner: GraphQLTestClient;
  let mine: string;
  let successor: string;
  let other: string;
  let limited: CreatedKey;

  beforeAll(async () => {
    server = await startTestServer();
    owner = await server.newAccount('frontend');
    mine = await createSession(owner, 'end user one');
    await postMessage(owner, mine, 'banana bread for user one');
    other = await createSession(owner, 'end user two');
    await postMessage(owner, other, 'banana split for user two');
    limited = await createKey(owner, { name: 'user one', scopes: ['WRITE'], sessionIds: [mine] });
    const continued = await continueSession(owner, continuation(mine));
    successor = continued.successor!.id;
  });
  afterAll(() => server.close());

  it('reads its session and its successor, and nothing else, as if nothing else existed', async () => {
    const read = (id: string) => limited.client.data<{ session: { id: string } | null }>('query ($id: ID!) { session(id: $id) { id } }', { id });
    expect((await read(mine)).session?.id).toBe(mine);
    expect((await read(successor)).session?.id).toBe(successor);
    expect((await read(other)).session).toBeNull();
    const { sessions } = await limited.client.data<{ sessions: { totalCount: number; edges: { node: { id: string } }[] } }>('{ sessions { totalCount edges { node { id } } } }');
    expect(sessions.edges.map((edge) => edge.node.id).sort()).toEqual([mine, successor].sort());
    expect(sessions.totalCount).toBe(2);
  });

  it('searches only its lineage, in every scope', async () => {
    const everywhere = await limited.client.data<{ searchEvents: { edges: { node: { event: { session: { id: string } } } }[] } }>(SEARCH, { q: 'banana', scope: 'ACCOUNT' });
    expect(everywhere.searchEvents.edges.length).toBeGreaterThan(0);
    expect(everywhere.searchEvents.edges.every((edge) => [mine, successor].includes(edge.node.event.session.id))).toBe(true);
    const elsewhere = await limited.client.request(SEARCH, { q: 'banana', s: other });
    expect(elsewhere.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('writes to its lineage, cannot write elsewhere or create sessions, and forks it makes stay in reach', async () => {
    await postMessage(limited.client, successor, 'more for user one');
    const { postMessage: refused } = await limited.client.data<{ postMessage: { __typename: string; code: string } }>(
      `mutation ($s: ID!) { postMessage(input: { sessionId: $s, text: "intrusion" }) { __typename ... on OperationError { code } } }`,
      { s: other },
    );
    expect(refused).toEqual({ __typename: 'OperationError', code: 'NOT_FOUND' });
    const { session } = await owner.data<{ session: { eventCount: number } }>('query ($id: ID!) { session(id: $id) { eventCount } }', { id: other });
    expect(session.eventCount).toBe(1);
    const created = await limited.client.request('mutation { createSession(input: { title: "mine now" }) { id } }');
    expect(created.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const eventId = await postMessage(limited.client, successor, 'fork from here');
    const { forkSession } = await limited.client.data<{ forkSession: { id: string } }>('mutation ($e: ID!) { forkSession(input: { eventId: $e }) { id } }', { e: eventId });
    expect((await limited.client.data<{ session: { id: string } | null }>('query ($id: ID!) { session(id: $id) { id } }', { id: forkSession.id })).session?.id).toBe(forkSession.id);
  });

  it("hears only its lineage continue among the account's continuations, and is refused NOT_FOUND subscribing elsewhere", async () => {
    const socket = limited.client.websocket();
    try {
      const refused = collect(socket, 'subscription ($s: ID!) { sessionEvents(sessionId: $s) { id } }', { s: other });
      await refused.until(1);
      expect(JSON.stringify(refused.errors)).toContain('NOT_FOUND');
      const continued = collect<{ sessionContinued: { predecessor: { id: string } } }>(socket, 'subscription { sessionContinued { predecessor { id } } }', {});
      await subscribed(server, 'ACCOUNT_CONTINUED', (await owner.data<{ viewer: { id: string } }>('{ viewer { id } }')).viewer.id);
      await settleRuns(server, successor);
      await continueSession(owner, continuation(other));
      await continueSession(owner, continuation(successor));
      await continued.until(1);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(continued.values.map((value) => value.sessionContinued.predecessor.id)).toEqual([successor]);
      const events = collect<{ sessionEvents: { text: string } }>(socket, 'subscription ($s: ID!) { sessionEvents(sessionId: $s, afterSeq: 0) { text } }', { s: successor });
      await events.until(1);
      expect(events.errors).toEqual([]);
    } finally {
      await socket.dispose();
    }
  });

  it('exports only its lineage, imports nothing, and its MCP tools reach only its sessions', async () => {
    const exported = (id: string) => fetch(`${server.url}/exports/${id}`, { headers: { authorization: `Bearer ${limited.secret}` } });
    expect((await exported(other)).status).toBe(404);
    const mine_ = await exported(mine);
    expect(mine_.status).toBe(200);
    await mine_.arrayBuffer();
    const imported = await fetch(`${server.url}/imports`, { method: 'POST', headers: { authorization: `Bearer ${limited.secret}`, 'content-type': 'application/json' }, body: '[]' });
    expect(imported.status).toBe(403);
  });

  it('calls MCP tools on its lineage only, and a READ key no writing tool', async () => {
    const connect = async (apiKey: string) => {
      const client = new Client({ name: 'keys-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${apiKey}` } } }));
      return client;
    };
    const call = async (client: Client, name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
    const codeOf = (result: CallToolResult) => (result.isError ? JSON.parse((result.content[0] as { text: string }).text).code : null);
    const tools = await connect(limited.secret);
    try {
      expect(codeOf(await call(tools, 'read_events', { sessionId: mine, fromSeq: 1, toSeq: 1 }))).toBeNull();
      expect(codeOf(await call(tools, 'read_events', { sessionId: other, fromSeq: 1, toSeq: 1 }))).toBe('NOT_FOUND');
      expect(codeOf(await call(tools, 'create_session', { title: 'not mine' }))).toBe('FORBIDDEN');
      expect(codeOf(await call(tools, 'search_history', { sessionId: mine, query: 'banana', scope: 'ACCOUNT' }))).toBe('FORBIDDEN');
    } finally {
      await tools.close();
    }
    const reader = await createKey(owner, { scopes: ['READ'] });
    const readOnly = await connect(reader.secret);
    try {
      expect(codeOf(await call(readOnly, 'append_message', { sessionId: other, text: 'no' }))).toBe('FORBIDDEN');
      expect(codeOf(await call(readOnly, 'read_events', { sessionId: other, fromSeq: 1, toSeq: 1 }))).toBeNull();
    } finally {
      await readOnly.close();
    }
  });
});
