import { request as httpRequest } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { GraphQLTestClient } from '../helpers/graphql-client';
import { startTestServer, TestServer } from '../helpers/test-server';
import { mcpOriginAllowed } from '../../src/mcp/origin';

/** A POST to /mcp with exactly these headers (fetch cannot set Host); resolves with its status and body. */
function postMcp(url: string, headers: Record<string, string>, body: unknown): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (response) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
    request.on('error', reject);
    request.end(JSON.stringify(body));
  });
}

describe('MCP over Streamable HTTP at /mcp', () => {
  let server: TestServer;
  let account: GraphQLTestClient;
  let mcp: Client;

  async function connect(apiKey: string): Promise<Client> {
    const client = new Client({ name: 'mcp-test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${apiKey}` } },
    });
    await client.connect(transport);
    return client;
  }

  async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    return (await mcp.callTool({ name, arguments: args })) as CallToolResult;
  }

  const textOf = (result: CallToolResult, index = 0) => (result.content[index] as { type: 'text'; text: string }).text;
  const jsonOf = (result: CallToolResult, index = 0) => JSON.parse(textOf(result, index));

  async function sessionWith(title: string, messages: string[]): Promise<string> {
    const { sessionId } = jsonOf(await call('create_session', { title }));
    for (const text of messages) expect((await call('append_message', { sessionId, text })).isError).toBeFalsy();
    return sessionId;
  }

  beforeAll(async () => {
    server = await startTestServer();
    account = await server.newAccount('mcp user');
    mcp = await connect(account.apiKey!);
  });
  afterAll(async () => {
    await mcp?.close();
    await server.close();
  });

  it('lists the tools, each with a title, hints of what it does and a JSON Schema of its input that describes every property', async () => {
    const { tools } = await mcp.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'create_session',
      'append_message',
      'continue_session',
      'read_events',
      'search_history',
      'read_manifest',
      'read_resource',
      'read_memory',
      'read_attachment',
      'walk_lineage',
    ]);
    const continueTool = tools.find((tool) => tool.name === 'continue_session')!;
    expect(continueTool.inputSchema.required).toEqual(expect.arrayContaining(['sessionId', 'handoff', 'sources', 'reason', 'title']));
    expect(continueTool.inputSchema.properties).toHaveProperty('handoff.properties.purpose');

    const readOnly = ['search_history', 'read_events', 'read_manifest', 'walk_lineage', 'read_resource', 'read_memory', 'read_attachment'];
    for (const tool of tools) {
      expect(tool.title).toMatch(/^[A-Z][a-z]+( [a-z]+)+$/);
      expect(tool.annotations).toMatchObject({ readOnlyHint: readOnly.includes(tool.name), destructiveHint: false, openWorldHint: false });
      expect(tool.inputSchema.additionalProperties).toBe(false);
      for (const [name, property] of Object.entries(tool.inputSchema.properties ?? {})) {
        expect([tool.name, name, (property as { description?: string }).description]).toEqual([tool.name, name, expect.stringMatching(/\w/)]);
      }
    }
    const sources = (continueTool.inputSchema.properties as { sources: { items: { oneOf: { properties: Record<string, { const?: string; description?: string }> }[] } } }).sources.items.oneOf;
    for (const shape of sources) {
      expect(shape.properties.kind.description).toMatch(/\w/);
      for (const property of Object.values(shape.properties)) expect(property.description).toMatch(/\w/);
    }
    const shape = (kind: string) => sources.find((candidate) => candidate.properties.kind.const === kind)!.properties;
    expect(shape('attachment').cid.description).toMatch(/^The file's content id, the sha256 of its bytes/);
    expect(shape('attachment').cid.description).not.toMatch(/MEMORY|memory|path/);
    expect(shape('memory').cid.description).toMatch(/^An exact entry's content id/);
    expect(shape('session_event').sessionId.description).toBe('The session holding the events.');
    // The API's own input type, which the tool's sources are generated from, names every shape too.
    const { __type, kinds } = await account.data<{ __type: { description: string }; kinds: { enumValues: { name: string }[] } }>(
      '{ __type(name: "ContinuationSourceInput") { description } kinds: __type(name: "SourceKind") { enumValues { name } } }',
    );
    expect(kinds.enumValues).toHaveLength(sources.length);
    for (const { name } of kinds.enumValues) expect(__type.description).toMatch(new RegExp(`\\b${name} \\(`));
    expect(__type.description).toMatch(new RegExp(`^One of ${['', '', 'two', 'three', 'four', 'five', 'six'][sources.length]} shapes`));
    const walk = tools.find((tool) => tool.name === 'walk_lineage')!;
    expect(walk.inputSchema.required).toEqual(['sessionId']);
    expect(JSON.stringify(walk)).not.toMatch(/by default|absent/);
  });

  it('refuses arguments that do not fit the input schema, naming what is wrong, and writes nothing', async () => {
    const before = (await account.data<{ sessions: { totalCount: number } }>('{ sessions { totalCount } }')).sessions.totalCount;
    const refusals = await Promise.all([
      call('create_session', { title: 'Extra', colour: 'blue' }),
      call('create_session', { title: 7 }),
      call('walk_lineage', {}),
      call('walk_lineage', { sessionId: '' }),
      call('search_history', { sessionId: '00000000-0000-4000-8000-000000000000', query: 'x', scope: 'EVERYWHERE' }),
    ]);
    expect(refusals.map((result) => [result.isError, jsonOf(result).code])).toEqual(refusals.map(() => [true, 'INVALID_INPUT']));
    expect(refusals.map((result) => jsonOf(result).message)).toEqual([
      'create_session: colour is not a known property (known here: title, description).',
      'create_session: title must be a string.',
      'walk_lineage: sessionId is required.',
      'walk_lineage: sessionId must not be empty.',
      'search_history: scope must be one of SESSION, LINEAGE, ACCOUNT.',
    ]);
    expect((await account.data<{ sessions: { totalCount: number } }>('{ sessions { totalCount } }')).sessions.totalCount).toBe(before);
  });

  it("reports a mistake in a continuation's source against the shape its kind names", async () => {
    const sessionId = await sessionWith('Sources', ['hello']);
    const args = (source: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
      sessionId,
      title: 'Next',
      reason: 'topic_change',
      handoff: { purpose: 'p', currentRequest: 'r' },
      sources: [{ relevance: 'needed', ...source }],
      ...extra,
    });
    const messages = await Promise.all(
      [
        args({ kind: 'resource', url: 'https://example.com/a', eventId: 'e1' }),
        args({ kind: 'attachment' }),
        args({ kind: 'webpage', url: 'https://example.com/a' }),
        args({ kind: 'memory', path: 'notes/a' }, { tokenBudget: 100 }),
      ].map(async (input) => jsonOf(await call('continue_session', input)).message),
    );
    expect(messages).toEqual([
      'continue_session: sources.0.eventId is not a known property (known here: kind, relevance, url, version, blockId).',
      'continue_session: sources.0.cid is required.',
      'continue_session: sources.0.kind must be one of session_events, session_event, resource, memory, attachment.',
      expect.stringMatching(/^continue_session: tokenBudget is not a known property \(known here: sessionId, idempotencyKey, initiatingEventId, /),
    ]);
    const { session } = await account.data<{ session: { status: string } }>('query ($id: ID!) { session(id: $id) { status } }', { id: sessionId });
    expect(session.status).toBe('ACTIVE');
  });

  it('says what is wrong with a manifest id that is not one', async () => {
    const refused = await call('read_manifest', { manifestId: 'manifest-1' });
    expect(refused.isError).toBe(true);
    expect(jsonOf(refused)).toEqual({
      code: 'INVALID_INPUT',
      message: '"manifest-1" is not a manifest id: manifest ids are UUIDs, as walk_lineage and the lineage block name them.',
    });
  });

  it('finds an earlier message with search_history and reads it back with read_events', async () => {
    const sessionId = await sessionWith('Garden', ['The tomatoes need staking before June.', 'What about the roses?']);
    const found = await call('search_history', { sessionId, query: 'tomatoes staking' });
    expect(found.isError).toBeFalsy();
    const { hits } = jsonOf(found);
    expect(hits[0]).toMatchObject({ sessionId, seq: 1, kind: 'USER_MESSAGE' });
    expect(hits[0].snippet).toContain('<mark>tomatoes</mark>');

    const read = jsonOf(await call('read_events', { sessionId, fromSeq: 1, toSeq: 2 }));
    expect(read.events.map((event: { text: string }) => event.text)).toEqual(['The tomatoes need staking before June.', 'What about the roses?']);
  });

  it('runs several rephrasings in one search_history call and merges their hits, each event once', async () => {
    const sessionId = await sessionWith('Pets', ['Our dog Rex loves the beach.', 'The cat sleeps all day.', 'Rex chased a gull at the beach again.']);
    const found = await call('search_history', { sessionId, queries: ['beach', 'gull', 'parrot'] });
    expect(found.isError).toBeFalsy();
    const merged = jsonOf(found);
    expect(merged.queries).toEqual([
      { query: 'beach', totalCount: 2 },
      { query: 'gull', totalCount: 1 },
      { query: 'parrot', totalCount: 0 },
    ]);
    // Found by two of the queries, seq 3 ranks first; seq 1 follows; the cat matches none.
    expect(merged.hits.map((hit: { seq: number; queries: number[] }) => [hit.seq, hit.queries])).toEqual([
      [3, [0, 1]],
      [1, [0]],
    ]);
    const refused = await call('search_history', { sessionId, queries: [] });
    expect(refused.isError).toBe(true);
    expect(jsonOf(refused)).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('queries') });
  });

  it("continues a session and returns the successor's id and its compiled context", async () => {
    const sessionId = await sessionWith('Moving house', ['We move on the 3rd of May.', 'Now let us plan the kitchen.']);
    const result = await call('continue_session', {
      sessionId,
      title: 'Kitchen plan',
      reason: 'topic_change',
      handoff: { purpose: 'Plan the new kitchen', currentRequest: 'Now let us plan the kitchen.', establishedFacts: ['The move is on the 3rd of May.'] },
      sources: [],
    });
    expect(result.isError).toBeFalsy();
    const { successorId, manifestId } = jsonOf(result);
    const context = textOf(result, 1);
    expect(context).toContain('Plan the new kitchen');
    expect(context).toContain('The move is on the 3rd of May.');

    const { session } = await account.data<{ session: { currentContinuation: { id: string }; continuations: { manifest: { id: string; context: { sections: { text: string }[] } } }[] } }>(
      'query ($id: ID!) { session(id: $id) { currentContinuation { id } continuations { manifest { id context { sections { text } } } } } }',
      { id: sessionId },
    );
    expect(session.currentContinuation.id).toBe(successorId);
    expect(session.continuations[0].manifest.id).toBe(manifestId);
    expect(context).toBe(session.continuations[0].manifest.context.sections.map((section) => section.text).join('\n\n'));

    const lineage = jsonOf(await call('walk_lineage', { sessionId: successorId }));
    expect(lineage.map((node: { sessionId: string }) => node.sessionId)).toEqual([sessionId, successorId]);
    const manifest = jsonOf(await call('read_manifest', { manifestId }));
    expect(manifest.handoff.purpose).toBe('Plan the new kitchen');

    const late = await call('append_message', { sessionId, text: 'One more thing' });
    expect(late.isError).toBe(true);
    expect(jsonOf(late)).toMatchObject({ code: 'SESSION_CONTINUED', currentContinuationId: successorId });
  });

  it('holds a continuation of a session that asks first as a proposal, which a person then approves', async () => {
    const { createSession } = await account.data<{ createSession: { id: string } }>(
      'mutation { createSession(input: { title: "Asking", continuationApproval: ASK }) { id } }',
    );
    const sessionId = createSession.id;
    expect((await call('append_message', { sessionId, text: 'Now let us plan the kitchen.' })).isError).toBeFalsy();
    const args = {
      sessionId,
      idempotencyKey: 'kitchen-once',
      title: 'Kitchen plan',
      reason: 'topic_change',
      handoff: { purpose: 'Plan the new kitchen', currentRequest: 'Now let us plan the kitchen.' },
      sources: [],
    };
    const held = await call('continue_session', args);
    expect(held.isError).toBeFalsy();
    const proposal = jsonOf(held);
    expect(proposal).toMatchObject({ status: 'awaiting_approval', proposalId: expect.any(String), expiresAt: expect.any(String), replayed: false });
    // The same call again is the same proposal.
    expect(jsonOf(await call('continue_session', args))).toMatchObject({ proposalId: proposal.proposalId, replayed: true });

    const SESSION = `query ($id: ID!) { session(id: $id) {
      status currentContinuation { id } pendingProposal { id title }
      events(first: 10) { edges { node { kind text } } } } }`;
    type Asked = {
      session: { status: string; currentContinuation: { id: string } | null; pendingProposal: { id: string; title: string } | null; events: { edges: { node: { kind: string; text: string } }[] } };
    };
    const waiting = (await account.data<Asked>(SESSION, { id: sessionId })).session;
    expect(waiting).toMatchObject({ status: 'ACTIVE', currentContinuation: { id: sessionId }, pendingProposal: { id: proposal.proposalId, title: 'Kitchen plan' } });
    // The transcript records the proposal once, beside the message; the outside agent's call is not in it.
    expect(waiting.events.edges.map((edge) => edge.node.kind)).toEqual(['USER_MESSAGE', 'SYSTEM']);
    expect(waiting.events.edges[1].node.text).toContain('Kitchen plan');

    const { approveContinuation } = await account.data<{ approveContinuation: { edge: { actor: string }; successor: { id: string } } }>(
      'mutation ($id: ID!) { approveContinuation(input: { proposalId: $id }) { ... on ContinueSessionSuccess { edge { actor } successor { id } } } }',
      { id: proposal.proposalId },
    );
    expect(approveContinuation.edge.actor).toBe('USER');
    const approved = (await account.data<Asked>(SESSION, { id: sessionId })).session;
    expect(approved).toMatchObject({ status: 'CONTINUED', currentContinuation: { id: approveContinuation.successor.id }, pendingProposal: null });
  });

  it("answers failures as tool errors with the API's codes", async () => {
    const unknown = await call('read_events', { sessionId: '00000000-0000-4000-8000-000000000000', fromSeq: 1, toSeq: 5 });
    expect(unknown.isError).toBe(true);
    expect(jsonOf(unknown).code).toBe('NOT_FOUND');

    const sessionId = await sessionWith('Bad continuation', ['hello']);
    const invalid = await call('continue_session', { sessionId, title: 'x', reason: 'no_such_reason', handoff: { purpose: 'p', currentRequest: 'r' }, sources: [] });
    expect(invalid.isError).toBe(true);
    expect(jsonOf(invalid).code).toBe('INVALID_INPUT');

    const memory = await call('read_memory', { path: 'notes/none' });
    expect(jsonOf(memory)).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('answers a call of a tool it does not have with a protocol error, its message said once', async () => {
    await expect(mcp.callTool({ name: 'nope', arguments: {} })).rejects.toMatchObject({ code: -32602, message: 'MCP error -32602: There is no tool named nope.' });
  });

  it("keeps each account's sessions to itself", async () => {
    const sessionId = await sessionWith('Private', ['a secret plan']);
    const other = await connect((await server.newAccount('other')).apiKey!);
    const read = (await other.callTool({ name: 'read_events', arguments: { sessionId, fromSeq: 1, toSeq: 1 } })) as CallToolResult;
    await other.close();
    expect(read.isError).toBe(true);
    expect(jsonOf(read).code).toBe('NOT_FOUND');
  });

  it('refuses a request without a valid key with 401', async () => {
    const response = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: 'Bearer sck_wrong' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    await expect(connect('sck_wrong')).rejects.toThrow();
  });

  describe('protection against DNS rebinding', () => {
    const createSession = (title: string) => ({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'create_session', arguments: { title } },
    });
    const titles = async () =>
      (await account.data<{ sessions: { edges: { node: { title: string } }[] } }>('{ sessions(first: 100) { edges { node { title } } } }')).sessions.edges.map(
        (edge) => edge.node.title,
      );

    it('refuses a page of another origin with 403, even with a valid key, and writes nothing', async () => {
      const auth = { authorization: `Bearer ${account.apiKey}` };
      const rebound = await postMcp(server.url, { ...auth, host: 'evil.example', origin: 'http://evil.example' }, createSession('Rebound'));
      const foreign = await postMcp(server.url, { ...auth, origin: 'http://evil.example' }, createSession('Foreign'));
      const rebindToOwnPort = await postMcp(
        server.url,
        { ...auth, host: `evil.example:${new URL(server.url).port}`, origin: `http://evil.example:${new URL(server.url).port}` },
        createSession('Rebound port'),
      );
      for (const refused of [rebound, foreign, rebindToOwnPort]) {
        expect(refused.status).toBe(403);
        expect(JSON.parse(refused.body)).toMatchObject({ jsonrpc: '2.0', error: { message: expect.stringContaining('CORS_ORIGINS') }, id: null });
      }
      expect((await titles()).filter((title) => /Rebound|Foreign/.test(title))).toEqual([]);
    });

    it("serves a page of the server's own origin, under each loopback name", async () => {
      const { port } = new URL(server.url);
      for (const name of ['127.0.0.1', 'localhost']) {
        const served = await postMcp(
          server.url,
          { authorization: `Bearer ${account.apiKey}`, host: `${name}:${port}`, origin: `http://${name}:${port}` },
          createSession(`From ${name}`),
        );
        expect(served.status).toBe(200);
      }
      expect(await titles()).toEqual(expect.arrayContaining(['From 127.0.0.1', 'From localhost']));
    });

    it('lets through origins listed in CORS_ORIGINS, and judges the own origin by the Host header off loopback', () => {
      const listed = ['https://app.example.com'];
      expect(mcpOriginAllowed(listed, '127.0.0.1', 'https://app.example.com', 'api.example.com')).toBe(true);
      expect(mcpOriginAllowed('*', '127.0.0.1', 'http://evil.example', 'evil.example')).toBe(true);
      expect(mcpOriginAllowed(listed, '127.0.0.1', undefined, 'evil.example')).toBe(true);
      expect(mcpOriginAllowed(listed, '127.0.0.1', 'null', '127.0.0.1:4000')).toBe(false);
      expect(mcpOriginAllowed(listed, '127.0.0.1', 'http://[::1]:4000', '[::1]:4000')).toBe(true);
      // Listening beyond loopback (in a container, behind a proxy), the server's name is what Host says.
      expect(mcpOriginAllowed([], '0.0.0.0', 'https://api.example.com', 'api.example.com')).toBe(true);
      expect(mcpOriginAllowed([], '0.0.0.0', 'https://evil.example', 'api.example.com')).toBe(false);
      expect(mcpOriginAllowed([], '127.0.0.1', 'https://api.example.com', 'api.example.com')).toBe(false);
    });
  });

  it('answers GET and DELETE with 405 and Allow: POST, as a stateless server without a stream of its own may', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${server.url}/mcp`, {
        method,
        headers: { accept: 'text/event-stream', authorization: `Bearer ${account.apiKey}` },
      });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
      expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { message: 'Send MCP requests with POST.' }, id: null });
    }
  });
});
