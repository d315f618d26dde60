import { GraphQLTestClient } from '../helpers/graphql-client';
import { continuation, continueSession, createSession, postMessage, settleRuns } from '../helpers/continuations';
import { startTestServer, TestServer } from '../helpers/test-server';

describe('lineage', () => {
  let server: TestServer;
  let client: GraphQLTestClient;
  const sql = (text: string, parameters: unknown[] = []) => server.app.database.dataSource.query(text, parameters);

  beforeAll(async () => {
    server = await startTestServer({ continuationPolicy: { streakLimit: 1000, perAccountPerMinute: 100_000, defaultTokenBudget: 2000 } });
    client = await server.newAccount('lineage');
  });
  afterAll(() => server.close());

  /**
   * Makes sure the key is freshly known (it is read again after a minute, and its last use written
   * in the background) and returns the query count once nothing else runs: a slow suite's next
   * request then counts only its own queries.
   */
  async function knownKeySettled(asker: GraphQLTestClient): Promise<number> {
    await asker.data('{ viewer { id } }');
    return server.settledQueryCount();
  }

  /** Continues `head` `count` times; each successor's run is settled so the next can follow. */
  async function chain(head: string, count: number, title = 'step'): Promise<string[]> {
    const sessions = [head];
    for (let i = 0; i < count; i += 1) {
      const result = await continueSession(client, continuation(sessions[sessions.length - 1], { title: `${title} ${i + 1}` }));
      if (!result.successor) throw new Error(`continuation ${i + 1} failed: ${result.code} ${result.message}`);
      await settleRuns(server, result.successor.id);
      sessions.push(result.successor.id);
    }
    return sessions;
  }

  it('walks the path from the origin, and the tree with its branches', async () => {
    const origin = await createSession(client, 'origin');
    await postMessage(client, origin, 'start');
    const [, b, c] = await chain(origin, 2);
    const branch = await continueSession(client, continuation(b, { title: 'branch' }));
    const { session } = await client.data<any>(
      `query ($id: ID!) { session(id: $id) {
        lineage { id } origin { id }
        lineageTree { depth session { id title } edge { predecessor { id } } } } }`,
      { id: c },
    );
    expect(session.lineage).toEqual([{ id: origin }, { id: b }, { id: c }]);
    expect(session.origin).toEqual({ id: origin });
    expect(session.lineageTree.map((node: any) => [node.depth, node.session.id, node.edge?.predecessor.id ?? null])).toEqual([
      [0, origin, null],
      [1, b, origin],
      [2, c, b],
      [2, branch.successor!.id, b],
    ]);
    const fromB = await client.data<any>('query ($id: ID!) { session(id: $id) { continuations { successor { id } } currentContinuation { id } } }', { id: b });
    expect(fromB.session.continuations.map((edge: any) => edge.successor.id)).toEqual([branch.successor!.id, c]);
    expect(fromB.session.currentContinuation).toEqual({ id: branch.successor!.id });
    const fromOrigin = await client.data<any>('query ($id: ID!) { session(id: $id) { currentContinuation { id } } }', { id: origin });
    expect(fromOrigin.session.currentContinuation).toEqual({ id: branch.successor!.id });
  });

  it('resolves a 200-deep lineage with the same number of queries as a 2-deep one', async () => {
    const deepOrigin = await createSession(client, 'deep');
    await postMessage(client, deepOrigin, 'go deep');
    const deep = await chain(deepOrigin, 200);
    const shallowOrigin = await createSession(client, 'shallow');
    await postMessage(client, shallowOrigin, 'stay shallow');
    const shallow = await chain(shallowOrigin, 2);

    const queriesFor = async (id: string) => {
      const before = await knownKeySettled(client);
      const { session } = await client.data<any>('query ($id: ID!) { session(id: $id) { lineage { id } } }', { id });
      return { queries: server.app.database.queryCount() - before, length: session.lineage.length, first: session.lineage[0].id };
    };
    const deepRead = await queriesFor(deep[200]);
    const shallowRead = await queriesFor(shallow[2]);
    expect(deepRead).toEqual({ queries: shallowRead.queries, length: 201, first: deepOrigin });
    // The session, and one recursive query for the whole path (the API key is known by then).
    expect(deepRead.queries).toBe(2);
  }, 120_000);

  it('lists sessions with their predecessors and edges in a constant number of queries', async () => {
    const lister = await server.newAccount('lister');
    const measure = async () => {
      const before = await knownKeySettled(lister);
      const { sessions } = await lister.data<any>(`query { sessions(first: 100) { edges { node {
        id predecessor { id title } continuedFrom { id reason initiatingEvent { id } manifest { id } } continuations { id } origin { id } } } } }`);
      return { queries: server.app.database.queryCount() - before, sessions: sessions.edges.length };
    };
    const grow = async (pairs: number) => {
      for (let i = 0; i < pairs; i += 1) {
        const root = await createSession(lister, `root ${i}`);
        await postMessage(lister, root, 'hello');
        await continueSession(lister, continuation(root));
      }
    };
    await grow(2);
    const few = await measure();
    await grow(8);
    const many = await measure();
    expect(few.sessions).toBe(4);
    expect(many.sessions).toBe(20);
    expect(many.queries).toBe(few.queries);
  }, 60_000);

  it("lists lineages with each one's current continuation, its activity and its whole tree in a constant number of queries", async () => {
    const lister = await server.newAccount('sidebar');
    const measure = async () => {
      const before = await knownKeySettled(lister);
      const { sessions } = await lister.data<any>(`query { sessions(first: 50, rootsOnly: true) { edges { node {
        id currentContinuation { id runs(last: 5) { id } pendingProposal { id } }
        lineageTree { depth session { id } edge { predecessor { id title } } } } } } }`);
      return { queries: server.app.database.queryCount() - before, lineages: sessions.edges.map((edge: any) => edge.node) };
    };
    const lineages = new Map<string, string[]>();
    const grow = async (count: number) => {
      for (let i = 0; i < count; i += 1) {
        const root = await createSession(lister, `root ${i}`);
        await postMessage(lister, root, 'hello');
        const first = await continueSession(lister, continuation(root));
        await settleRuns(server, first.successor!.id);
        const second = await continueSession(lister, continuation(first.successor!.id));
        lineages.set(root, [root, first.successor!.id, second.successor!.id]);
      }
    };
    await grow(2);
    const few = await measure();
    await grow(18);
    const many = await measure();
    expect(few.lineages).toHaveLength(2);
    expect(many.lineages).toHaveLength(20);
    for (const node of many.lineages) {
      const [root, middle, head] = lineages.get(node.id)!;
      expect(node.currentContinuation).toMatchObject({ id: head, pendingProposal: null });
      expect(node.currentContinuation.runs).toHaveLength(1);
      expect(node.lineageTree.map((tree: any) => [tree.depth, tree.session.id, tree.edge?.predecessor.id ?? null])).toEqual([
        [0, root, null],
        [1, middle, root],
        [2, head, middle],
      ]);
    }
    expect(many.queries).toBe(few.queries);
  }, 60_000);

  it('cannot form a cycle: the database refuses an edge back into the lineage', async () => {
    const origin = await createSession(client, 'acyclic');
    const message = await postMessage(client, origin, 'no loops');
    const [, b] = await chain(origin, 1);
    const [account] = await sql('SELECT account_id FROM sessions WHERE id = $1', [origin]);
    await expect(
      sql(
        `INSERT INTO continuation_edges (id, account_id, predecessor_id, predecessor_depth, successor_id, successor_depth,
           reason, actor, initiating_event_id, idempotency_key, request_fingerprint, created_at)
         VALUES (gen_random_uuid(), $1, $2, 1, $3, 0, 'OTHER', 'SYSTEM', $4, 'loop', 'x', now())`,
        [account.account_id, b, origin, message],
      ),
    ).rejects.toThrow(/continuation_edges_depth/);
  });

  it('stores a manifest once: the database refuses to change or delete it', async () => {
    const origin = await createSession(client, 'sealed');
    await postMessage(client, origin, 'seal it');
    await chain(origin, 1);
    await expect(sql(`UPDATE projection_manifests SET token_cost = 0 WHERE predecessor_id = $1`, [origin])).rejects.toThrow(/stored once/);
    await expect(sql(`DELETE FROM projection_manifests WHERE predecessor_id = $1`, [origin])).rejects.toThrow(/stored once/);
  });
});
