import { randomUUID } from 'node:crypto';
import { collect, GraphQLTestClient } from '../helpers/graphql-client';
import { download, violationsOf } from '../helpers/attachments';
import { createSession, postMessage, subscribed } from '../helpers/continuations';
import { BuiltLineage, buildLineage } from '../helpers/lineage';
import { startTestServer, TestServer } from '../helpers/test-server';

const ERASE = `mutation ($input: EraseSessionInput!) { eraseSession(input: $input) {
  __typename
  ... on ErasureReceipt { id scope sessionIds eventCount attachmentCount reason actor requestedBy eventId erasedAt }
  ... on OperationError { code message details { path message } }
} }`;
const REDACT = `mutation ($e: ID!, $r: String!) { redactEvent(eventId: $e, reason: $r) {
  __typename
  ... on ErasureReceipt { id scope sessionIds eventCount eventId }
  ... on OperationError { code message }
} }`;
const EVENTS = `query ($s: ID!) { session(id: $s) { title erasedAt events(first: 100) { edges { node { id seq kind text data hash createdAt erasedAt attachments { cid } } } } } }`;

interface EventRow {
  id: string;
  seq: number;
  kind: string;
  text: string | null;
  data: Record<string, unknown> | null;
  hash: string;
  createdAt: string;
  erasedAt: string | null;
  attachments: { cid: string }[];
}

describe('erasure', () => {
  let server: TestServer;
  let client: GraphQLTestClient;
  const sql = (text: string, parameters: unknown[] = []) => server.app.database.dataSource.query(text, parameters);

  beforeAll(async () => {
    server = await startTestServer();
    client = await server.newAccount('erasure');
  });
  afterAll(() => server.close());

  async function eventsOf(sessionId: string): Promise<{ title: string; erasedAt: string | null; events: EventRow[] }> {
    const { session } = await client.data<{ session: { title: string; erasedAt: string | null; events: { edges: { node: EventRow }[] } } }>(EVENTS, { s: sessionId });
    return { title: session.title, erasedAt: session.erasedAt, events: session.events.edges.map((edge) => edge.node) };
  }

  const search = async (query: string) =>
    (await client.data<{ searchEvents: { edges: { node: { event: { id: string } } }[] } }>('query ($q: String!) { searchEvents(query: $q, first: 20) { edges { node { event { id } } } } }', { q: query }))
      .searchEvents.edges.map((edge) => edge.node.event.id);

  const termRows = async (sessionIds: string[]) =>
    (await sql(`SELECT count(*)::int AS n FROM search_terms WHERE session_id = ANY($1::uuid[])`, [sessionIds]))[0].n as number;

  describe('of a whole lineage', () => {
    let lineage: BuiltLineage;
    let before: EventRow[][];
    let receipt: Record<string, unknown>;
    let manifestsBefore: { id: string; hash: string }[];

    beforeAll(async () => {
      lineage = await buildLineage(server, client, 'quokkafire');
      before = await Promise.all(lineage.sessionIds.map(async (id) => (await eventsOf(id)).events));
      manifestsBefore = await sql(`SELECT id, hash FROM projection_manifests WHERE origin_id = $1 ORDER BY id`, [lineage.sessionIds[0]]);
      expect(await search('quokkafire')).not.toHaveLength(0);
      expect((await download(client, lineage.attachmentCid)).status).toBe(200);
      const { eraseSession } = await client.data<{ eraseSession: Record<string, unknown> }>(ERASE, {
        input: { sessionId: lineage.sessionIds[2], scope: 'LINEAGE', reason: 'The customer asked us to forget the reactor.' },
      });
      receipt = eraseSession;
    });

    it('answers with a receipt saying who, when, why and what', () => {
      expect(receipt).toMatchObject({
        __typename: 'ErasureReceipt',
        scope: 'LINEAGE',
        reason: 'The customer asked us to forget the reactor.',
        actor: 'USER',
        requestedBy: 'erasure',
        eventId: null,
        attachmentCount: 1,
        eventCount: before.flat().length,
      });
      expect([...(receipt.sessionIds as string[])].sort()).toEqual([...lineage.sessionIds].sort());
    });

    it('removes every text and link and keeps ids, seq, kinds, times and hashes as recorded', async () => {
      for (const [index, sessionId] of lineage.sessionIds.entries()) {
        const after = await eventsOf(sessionId);
        expect(after.title).toBe('Erased conversation');
        expect(after.erasedAt).not.toBeNull();
        expect(after.events.map(({ id, seq, kind, hash, createdAt }) => ({ id, seq, kind, hash, createdAt }))).toEqual(
          before[index].map(({ id, seq, kind, hash, createdAt }) => ({ id, seq, kind, hash, createdAt })),
        );
        for (const event of after.events) {
          expect(event).toMatchObject({ text: null, attachments: [] });
          expect(event.erasedAt).not.toBeNull();
          if (event.kind === 'CONTINUATION') expect(Object.keys(event.data ?? {}).sort()).toEqual(expect.arrayContaining(['edgeId', 'role']));
          else expect(event.data).toBeNull();
          expect(JSON.stringify(event)).not.toContain('quokkafire');
        }
      }
    });

    it('leaves nothing for search, its statistics, manifests, plans or attachments to give back', async () => {
      expect(await search('quokkafire')).toEqual([]);
      expect(await search('reactor Zeta coolant valve')).toEqual([]);
      expect(await termRows(lineage.sessionIds)).toBe(0);
      expect((await download(client, lineage.attachmentCid)).status).toBe(404);
      const manifests: { id: string; hash: string; handoff: { purpose: string }; context: unknown; lineage_block: string; items: { relevance: string }[]; erased_at: Date }[] = await sql(
        `SELECT id, hash, handoff, context, lineage_block, items, erased_at FROM projection_manifests WHERE origin_id = $1 ORDER BY id`,
        [lineage.sessionIds[0]],
      );
      expect(manifests.map(({ id, hash }) => ({ id, hash }))).toEqual(manifestsBefore);
      for (const manifest of manifests) {
        expect(manifest.erased_at).not.toBeNull();
        expect(JSON.stringify(manifest)).not.toMatch(/quokkafire|Zeta|coolant/);
      }
      const plans: { steps: unknown[] }[] = await sql(`SELECT steps FROM plan_revisions WHERE session_id = ANY($1::uuid[])`, [lineage.sessionIds]);
      expect(plans.length).toBeGreaterThan(0);
      for (const plan of plans) expect(plan.steps).toEqual([]);
      const { session } = await client.data<{ session: { lineage: { id: string }[] } }>('query ($s: ID!) { session(id: $s) { lineage { id } } }', { s: lineage.sessionIds[2] });
      expect(session.lineage.map((each) => each.id)).toEqual(lineage.sessionIds);
    });

    it('keeps the hash chains, edges and manifests verifiable', async () => {
      expect(await violationsOf(server, lineage.sessionIds)).toEqual([]);
    });

    it('lists the receipt among the erasures, newest first', async () => {
      const { erasures } = await client.data<{ erasures: { id: string; scope: string }[] }>('query { erasures(first: 10) { id scope } }');
      expect(erasures[0]).toEqual({ id: receipt.id, scope: 'LINEAGE' });
    });

    it('refuses new messages in an erased session and a second erasure of it', async () => {
      const { postMessage } = await client.data<{ postMessage: { code?: string; message?: string } }>(
        'mutation ($s: ID!) { postMessage(input: { sessionId: $s, text: "still there?" }) { ... on OperationError { code message } } }',
        { s: lineage.sessionIds[2] },
      );
      expect(postMessage).toEqual({ code: 'INVALID_INPUT', message: 'This session was erased: it takes no more writes. Start a new conversation.' });
      const again = await client.data<{ eraseSession: { code: string } }>(ERASE, { input: { sessionId: lineage.sessionIds[2], scope: 'LINEAGE', reason: 'again' } });
      expect(again.eraseSession.code).toBe('INVALID_INPUT');
    });
  });

  it('erases one session of a lineage with the replayed copy of its message in the successor, and leaves the successor in use', async () => {
    const lineage = await buildLineage(server, client, 'ibisquartz');
    const [first, second] = lineage.sessionIds;
    const { eraseSession } = await client.data<{ eraseSession: Record<string, unknown> }>(ERASE, { input: { sessionId: first, scope: 'SESSION', reason: 'Only the start' } });
    expect(eraseSession).toMatchObject({ __typename: 'ErasureReceipt', scope: 'SESSION', sessionIds: [first] });
    const successor = await eventsOf(second);
    expect(successor.erasedAt).toBeNull();
    const [banner, replay, ...rest] = successor.events;
    expect(banner.erasedAt).toBeNull();
    expect(replay).toMatchObject({ kind: 'USER_MESSAGE', text: null });
    expect(replay.erasedAt).not.toBeNull();
    expect(rest.filter((event) => event.kind === 'USER_MESSAGE').map((event) => event.text)).toEqual(['The inspection found a worn valve.']);
    expect(await search('ibisquartz')).not.toHaveLength(0);
    expect(JSON.stringify(await search('ibisquartz reactor Zeta'))).not.toContain(replay.id);
    expect((await eventsOf(lineage.sessionIds[2])).events.some((event) => event.text?.includes('ibisquartz'))).toBe(true);
    expect(await violationsOf(server, lineage.sessionIds)).toEqual([]);
  });

  it('stops the runs of an erased session and forgets what they produced', async () => {
    const sessionId = await createSession(client, 'busy');
    const triggerId = await postMessage(client, sessionId, 'think about the pelican budget');
    const runId = randomUUID();
    const accountId = (await sql(`SELECT account_id FROM sessions WHERE id = $1`, [sessionId]))[0].account_id;
    await sql(
      `INSERT INTO runs (id, account_id, session_id, kind, status, trigger_event_id, output, attempt, lease_owner, lease_expires_at, started_at, created_at, updated_at)
       VALUES ($1, $2, $3, 'TURN', 'RUNNING', $4, 'The pelican budget is', 1, 'a-worker', now() + interval '1 minute', now(), now(), now())`,
      [runId, accountId, sessionId, triggerId],
    );
    const ws = client.websocket();
    const updates = collect<{ runUpdated: { id: string; status: string; output: string | null } }>(ws, 'subscription ($s: ID!) { runUpdated(sessionId: $s) { id status output } }', { s: sessionId });
    await subscribed(server, 'RUN_UPDATED', sessionId);
    const { eraseSession } = await client.data<{ eraseSession: { __typename: string } }>(ERASE, { input: { sessionId, scope: 'SESSION', reason: 'mistake' } });
    expect(eraseSession.__typename).toBe('ErasureReceipt');
    await updates.until(1);
    expect(updates.values[0].runUpdated).toEqual({ id: runId, status: 'CANCELLED', output: null });
    const [run] = await sql(`SELECT status, output, lease_owner FROM runs WHERE id = $1`, [runId]);
    expect(run).toEqual({ status: 'CANCELLED', output: null, lease_owner: null });
    await ws.dispose();
  });

  it('redacts one event, keeping its neighbours, its place and its hash, and recounting search exactly', async () => {
    const sessionId = await createSession(client, 'redaction');
    await postMessage(client, sessionId, 'The wombat ledger opens on Monday.');
    const secret = await postMessage(client, sessionId, 'My wombat password is hunter2 narwhalzebra.');
    await postMessage(client, sessionId, 'The wombat ledger closes on Friday.');
    const before = (await eventsOf(sessionId)).events;
    const { redactEvent } = await client.data<{ redactEvent: Record<string, unknown> }>(REDACT, { e: secret, r: 'A password was pasted by mistake.' });
    expect(redactEvent).toMatchObject({ __typename: 'ErasureReceipt', scope: 'EVENT', sessionIds: [sessionId], eventCount: 1, eventId: secret });
    const after = (await eventsOf(sessionId)).events;
    expect(after.map(({ id, seq, hash }) => ({ id, seq, hash }))).toEqual(before.map(({ id, seq, hash }) => ({ id, seq, hash })));
    expect(after.map((event) => event.text)).toEqual([before[0].text, null, before[2].text]);
    expect(after[1].erasedAt).not.toBeNull();
    expect(await search('narwhalzebra')).toEqual([]);
    expect(await search('wombat ledger')).toEqual(expect.arrayContaining([before[0].id, before[2].id]));
    const recount: unknown[] = await sql(
      `SELECT event.account_id, entry.lexeme, event.session_id, count(*)::int AS documents FROM events event, unnest(event.search_vector) entry
       WHERE event.session_id = $1 GROUP BY 1, 2, 3 ORDER BY 2`,
      [sessionId],
    );
    const kept: unknown[] = await sql(`SELECT account_id, lexeme, session_id, documents FROM search_terms WHERE session_id = $1 ORDER BY lexeme`, [sessionId]);
    expect(kept).toEqual(recount);
    expect(await violationsOf(server, [sessionId])).toEqual([]);
  });

  it("answers another account's session or event as not found, and refuses a reason left empty", async () => {
    const sessionId = await createSession(client, 'mine');
    const eventId = await postMessage(client, sessionId, 'hello');
    const stranger = await server.newAccount('stranger');
    const erased = await stranger.data<{ eraseSession: { code: string } }>(ERASE, { input: { sessionId, scope: 'LINEAGE', reason: 'no' } });
    expect(erased.eraseSession.code).toBe('NOT_FOUND');
    const redacted = await stranger.data<{ redactEvent: { code: string } }>(REDACT, { e: eventId, r: 'no' });
    expect(redacted.redactEvent.code).toBe('NOT_FOUND');
    const empty = await client.data<{ eraseSession: { code: string; details: { path: string[] }[] } }>(ERASE, { input: { sessionId, scope: 'SESSION', reason: '  ' } });
    expect(empty.eraseSession).toMatchObject({ code: 'INVALID_INPUT', details: [{ path: ['input', 'reason'] }] });
    expect((await eventsOf(sessionId)).events[0].text).toBe('hello');
  });
});
