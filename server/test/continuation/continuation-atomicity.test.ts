import { randomUUID } from 'node:crypto';
import { collect, GraphQLTestClient } from '../helpers/graphql-client';
import { CONTINUE, continuation, createSession, postMessage, subscribed } from '../helpers/continuations';
import { startTestServer, TestServer } from '../helpers/test-server';
import { FaultStep, injectFault } from '../helpers/faults';

/** Each write of a continuation, in order, and a row condition that picks out exactly that write. */
const STEPS: FaultStep[] = [
  ['insert the successor', 'sessions', 'INSERT', `NEW.kind = 'CONTINUATION'`],
  ['open the successor with its banner', 'events', 'INSERT', `NEW.data->>'role' = 'banner'`],
  ['replay the initiating message', 'events', 'INSERT', `NEW.replay_of_id IS NOT NULL`],
  ['write the edge', 'continuation_edges', 'INSERT', 'true'],
  ['store the manifest', 'projection_manifests', 'INSERT', 'true'],
  ['carry the plan', 'plan_revisions', 'INSERT', 'true'],
  ['append the transition card', 'events', 'INSERT', `NEW.data->>'role' = 'transition_card'`],
  ["count it in the account's rate window", 'continuation_rate_windows', 'INSERT', 'true'],
  ['mark the predecessor continued', 'sessions', 'UPDATE', `NEW.status = 'CONTINUED' AND OLD.status = 'ACTIVE'`],
  ["queue the successor's run", 'runs', 'INSERT', `NEW.kind = 'TURN'`],
  ['move the pending delegated run', 'runs', 'UPDATE', 'NEW.session_id <> OLD.session_id'],
];

describe('continueSession is atomic', () => {
  let server: TestServer;
  let client: GraphQLTestClient;
  let accountId: string;
  const logLines: string[] = [];
  const sql = (text: string, parameters: unknown[] = []) => server.app.database.dataSource.query(text, parameters);

  beforeAll(async () => {
    server = await startTestServer({ logDestination: { write: (line: string) => void logLines.push(line) } });
    client = await server.newAccount('atomic');
    accountId = (await client.data<{ viewer: { id: string } }>('query { viewer { id } }')).viewer.id;
  });
  afterAll(() => server.close());

  async function snapshot(predecessorId: string) {
    const [row] = await sql(
      `SELECT (SELECT count(*) FROM sessions WHERE account_id = $1)::int AS sessions,
              (SELECT count(*) FROM events WHERE account_id = $1)::int AS events,
              (SELECT count(*) FROM continuation_edges WHERE account_id = $1)::int AS edges,
              (SELECT count(*) FROM projection_manifests WHERE account_id = $1)::int AS manifests,
              (SELECT count(*) FROM runs WHERE account_id = $1)::int AS runs,
              (SELECT count(*) FROM plan_revisions WHERE account_id = $1)::int AS plans,
              (SELECT current_count FROM continuation_rate_windows WHERE account_id = $1) AS "rateCount",
              (SELECT status FROM sessions WHERE id = $2) AS status,
              (SELECT event_count FROM sessions WHERE id = $2) AS "eventCount",
              (SELECT array_agg(session_id) FROM runs WHERE account_id = $1 AND kind = 'DELEGATED') AS "delegatedIn"`,
      [accountId, predecessorId],
    );
    return row;
  }

  it('leaves nothing behind and publishes nothing when any of its writes fails', async () => {
    const predecessor = await createSession(client, 'fragile');
    await postMessage(client, predecessor, 'continue me, if you can');
    const delegatedRun = randomUUID();
    const child = randomUUID();
    await sql(
      `INSERT INTO sessions (id, account_id, kind, status, title, created_at, origin_id, parent_id)
       VALUES ($1, $2, 'CHILD', 'ACTIVE', 'delegated work', now(), $1, $3)`,
      [child, accountId, predecessor],
    );
    await sql(
      `INSERT INTO runs (id, account_id, session_id, kind, status, child_session_id, tool_call_id, created_at, updated_at)
       VALUES ($1, $2, $3, 'DELEGATED', 'RUNNING', $4, 'call-delegate', now(), now())`,
      [delegatedRun, accountId, predecessor, child],
    );
    await client.data('mutation ($s: ID!) { updatePlan(input: { sessionId: $s, steps: [{ title: "hold", status: PENDING }] }) { revision } }', {
      s: predecessor,
    });
    const input = continuation(predecessor, { transfer: { pendingRuns: [delegatedRun], plan: 'CARRY' } });

    const ws = client.websocket();
    const continued = collect(ws, 'subscription ($s: ID) { sessionContinued(sessionId: $s) { edge { id } } }', { s: predecessor });
    const appended = collect<{ sessionEvents: { kind: string } }>(ws, 'subscription ($s: ID!) { sessionEvents(sessionId: $s) { kind } }', {
      s: predecessor,
    });
    await subscribed(server, 'SESSION_CONTINUED', predecessor);
    await subscribed(server, 'SESSION_EVENT', predecessor);

    const before = await snapshot(predecessor);
    for (const step of STEPS) {
      const [name] = step;
      const remove = await injectFault(sql, accountId, step);
      try {
        const response = await client.request(CONTINUE, { input });
        expect({ step: name, errors: response.errors?.map((error) => error.extensions?.code) }).toEqual({
          step: name,
          errors: ['INTERNAL_SERVER_ERROR'],
        });
        const logged = JSON.parse(logLines[logLines.length - 1]);
        expect({ msg: logged.msg, err: logged.err.message }).toEqual({ msg: 'Unexpected error in a GraphQL operation', err: expect.stringContaining(name) });
        expect({ step: name, state: await snapshot(predecessor) }).toEqual({ step: name, state: before });
      } finally {
        await remove();
      }
    }

    const response = await client.data<{ continueSession: { edge: { id: string } } }>(CONTINUE, { input });
    await continued.until(1);
    await appended.until(1);
    expect(continued.values).toEqual([{ sessionContinued: { edge: { id: response.continueSession.edge.id } } }]);
    expect(appended.values).toEqual([{ sessionEvents: { kind: 'CONTINUATION' } }]);
    const after = await snapshot(predecessor);
    expect(after).toMatchObject({
      edges: before.edges + 1,
      manifests: before.manifests + 1,
      runs: before.runs + 1,
      plans: before.plans + 1,
      rateCount: 1,
      status: 'CONTINUED',
    });
    expect(after.delegatedIn).not.toContain(predecessor);
    await ws.dispose();
  });
});
