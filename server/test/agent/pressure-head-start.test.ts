import { setTimeout as sleep } from 'node:timers/promises';
import { createSession, subscribed } from '../helpers/continuations';
import { collect, GraphQLTestClient } from '../helpers/graphql-client';
import { ModelStandIn, startModelStandIn } from '../helpers/model-stand-in';
import { agentOnStandIn, converse, Turn, workingMessage } from '../helpers/pressure-conversation';
import { runsOf } from '../helpers/runs';
import { startTestServer, TestServer } from '../helpers/test-server';

jest.setTimeout(180_000);

/**
 * The successor's first model call leaves while the continuation that creates it commits. On
 * PostgreSQL only: the embedded database runs in the server's own thread, so a write held there
 * holds everything else too.
 */
const onPostgres = process.env.TEST_DATABASE_URL ? describe : describe.skip;

/** How long each continuation's write is held in the database before it goes on, or fails. */
const HOLD_MS = 400;

onPostgres("a continuation at the threshold starts the successor's first model call while it commits", () => {
  let model: ModelStandIn;
  let server: TestServer;
  let client: GraphQLTestClient;
  const sql = (text: string, parameters: unknown[] = []) => server.app.database.dataSource.query(text, parameters);

  beforeAll(async () => {
    model = await startModelStandIn({ contextTokens: 8_000, replyTokens: 60 });
    server = await startTestServer({ agent: agentOnStandIn(model, 8_000, 0.7) });
    client = await server.newAccount('head-start');
    await sql('CREATE TABLE held_continuations (at double precision NOT NULL)');
  });
  afterAll(async () => {
    await server.close();
    await model.close();
  });

  /** Holds the write of each continuation for HOLD_MS (when it reaches its edge), noting when; then fails it, with `failing`. */
  async function holdContinuationWrites(failing: boolean): Promise<void> {
    await sql(`CREATE OR REPLACE FUNCTION hold_continuation() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO held_continuations VALUES (extract(epoch FROM clock_timestamp()) * 1000);
        PERFORM pg_sleep(${HOLD_MS / 1000});
        ${failing ? `RAISE EXCEPTION 'the disk is full';` : ''}
        RETURN NEW;
      END $$`);
    await sql('DROP TRIGGER IF EXISTS hold_continuation ON continuation_edges');
    await sql('CREATE TRIGGER hold_continuation BEFORE INSERT ON continuation_edges FOR EACH ROW EXECUTE FUNCTION hold_continuation()');
  }

  /** Messages until one is answered by a draft call (the runtime continuing at the threshold): that turn. */
  async function untilDrafted(sessionId: string, from: number, onDraft: () => void): Promise<Turn> {
    for (let index = from; ; index += 1) {
      const before = model.requests.length;
      let watching = true;
      const watcher = (async () => {
        while (watching && !model.requests.slice(before).some((request) => request.forced !== null)) await sleep(2);
        if (watching) onDraft();
      })();
      const [turn] = await converse(client, model, sessionId, [workingMessage(index)]);
      watching = false;
      await watcher;
      if (turn.requests.some((request) => request.forced !== null)) return turn;
      if (index > from + 80) throw new Error('The conversation never reached its threshold');
    }
  }

  it('sends it before the commit is done, and the successor answers as usual', async () => {
    await holdContinuationWrites(false);
    const origin = await createSession(client, 'Quay walls');
    const turn = await untilDrafted(origin, 0, () => undefined);
    expect(turn.continuedTo).not.toBeNull();
    const draftAt = turn.requests.findIndex((request) => request.forced !== null);
    const successorCall = turn.requests[draftAt + 1];
    const [{ at: heldAt }] = (await sql('SELECT at FROM held_continuations ORDER BY at DESC LIMIT 1')) as { at: number }[];
    // The write was held HOLD_MS from heldAt before it could commit: the call arrived meanwhile.
    expect(successorCall.arrivedAt).toBeLessThan(heldAt + HOLD_MS - 100);
    expect(successorCall.outcome).toBe('answered');
    const { session } = await client.data<{ session: { runs: { status: string; output: string | null }[] } }>(
      'query ($id: ID!) { session(id: $id) { runs { status output } } }',
      { id: turn.continuedTo },
    );
    expect(session.runs).toEqual([{ status: 'SUCCEEDED', output: successorCall.text }]);
  });

  it('cancels the call when the commit fails, and nothing of the successor is stored or published', async () => {
    await holdContinuationWrites(true);
    const origin = await createSession(client, 'Pier repairs');
    const ws = client.websocket();
    const continued = collect(ws, 'subscription ($s: ID) { sessionContinued(sessionId: $s) { edge { id } } }', { s: origin });
    await subscribed(server, 'SESSION_CONTINUED', origin);

    // The successor's call is held unanswered by the model, so that only the server can end it.
    const turn = await untilDrafted(origin, 500, () => model.hangNext(1));
    const draftAt = turn.requests.findIndex((request) => request.forced !== null);
    expect(turn.requests.slice(draftAt + 1).map((request) => request.outcome)).toEqual(['aborted']);
    expect(turn.continuedTo).toBeNull();
    const runs = await runsOf(client, origin);
    expect(runs[runs.length - 1]).toMatchObject({ status: 'FAILED' });
    const [{ successors }] = (await sql(`SELECT count(*)::int AS successors FROM sessions WHERE kind = 'CONTINUATION'`)) as { successors: number }[];
    // The first test's successor only.
    expect(successors).toBe(1);
    expect(continued.values).toEqual([]);
    await ws.dispose();
  });
});
