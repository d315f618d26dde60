import { GraphQLTestClient } from '../helpers/graphql-client';
import { runsOf, settledRuns } from '../helpers/runs';
import { startTestServer, TestServer } from '../helpers/test-server';
import { FaultStep, injectFault } from '../helpers/faults';
import { DEFAULT_AGENT_CONFIG } from '../../src/config';

/** Each write of a proposal made by the agent, and a row condition that picks out exactly that write. */
const PROPOSE_STEPS: FaultStep[] = [
  ['supersede the pending proposal', 'continuation_proposals', 'UPDATE', `NEW.status = 'EXPIRED'`],
  ['store the proposal', 'continuation_proposals', 'INSERT', 'true'],
  ['record the tool call', 'events', 'INSERT', `NEW.kind = 'TOOL_CALL'`],
  ['record its result', 'events', 'INSERT', `NEW.kind = 'TOOL_RESULT'`],
  ['note the proposal in the transcript', 'events', 'INSERT', `NEW.kind = 'SYSTEM'`],
];

/** The writes of an approval: the continuation's, and the proposal's mark. */
const APPROVE_STEPS: FaultStep[] = [
  ['insert the successor', 'sessions', 'INSERT', `NEW.kind = 'CONTINUATION'`],
  ['write the edge', 'continuation_edges', 'INSERT', 'true'],
  ['store the manifest', 'projection_manifests', 'INSERT', 'true'],
  ['append the transition card', 'events', 'INSERT', `NEW.data->>'role' = 'transition_card'`],
  ['mark the proposal approved', 'continuation_proposals', 'UPDATE', `NEW.status = 'APPROVED'`],
];

const REJECT_STEPS: FaultStep[] = [
  ['mark the proposal rejected', 'continuation_proposals', 'UPDATE', `NEW.status = 'REJECTED'`],
  ['note the rejection in the transcript', 'events', 'INSERT', `NEW.data->>'role' = 'continuation_rejected'`],
  ['queue the answer in place', 'runs', 'INSERT', `NEW.kind = 'TURN'`],
];

describe('proposals are written atomically', () => {
  let server: TestServer;
  let client: GraphQLTestClient;
  let accountId: string;
  const sql = (text: string, parameters: unknown[] = []) => server.app.database.dataSource.query(text, parameters);

  beforeAll(async () => {
    server = await startTestServer({ agent: { ...DEFAULT_AGENT_CONFIG, provider: 'builtin', pollMs: 50 }, logLevel: 'silent' });
    client = await server.newAccount('atomic proposals');
    accountId = (await client.data<{ viewer: { id: string } }>('query { viewer { id } }')).viewer.id;
  });
  afterAll(() => server.close());

  async function state(sessionId: string) {
    const [row] = await sql(
      `SELECT (SELECT count(*) FROM sessions WHERE account_id = $1)::int AS sessions,
              (SELECT count(*) FROM events WHERE account_id = $1)::int AS events,
              (SELECT count(*) FROM continuation_edges WHERE account_id = $1)::int AS edges,
              (SELECT count(*) FROM projection_manifests WHERE account_id = $1)::int AS manifests,
              (SELECT count(*) FROM runs WHERE account_id = $1 AND status <> 'FAILED')::int AS runs,
              (SELECT array_agg(status ORDER BY created_at) FROM continuation_proposals WHERE session_id = $2) AS proposals,
              (SELECT status FROM sessions WHERE id = $2) AS status`,
      [accountId, sessionId],
    );
    return row;
  }

  /** Runs `attempt` once per step with a fault injected at that write, expecting each to leave `state` as it was. */
  async function failingAt(steps: FaultStep[], sessionId: string, attempt: (step: string) => Promise<void>): Promise<void> {
    const before = await state(sessionId);
    for (const step of steps) {
      const [name] = step;
      const remove = await injectFault(sql, accountId, step);
      try {
        await attempt(name);
        expect({ step: name, state: await state(sessionId) }).toEqual({ step: name, state: before });
      } finally {
        await remove();
      }
    }
  }

  async function askSession(title: string): Promise<string> {
    const { createSession } = await client.data<{ createSession: { id: string } }>(
      'mutation ($t: String!) { createSession(input: { title: $t, continuationApproval: ASK }) { id } }',
      { t: title },
    );
    return createSession.id;
  }

  async function post(sessionId: string, text: string): Promise<string> {
    const { postMessage } = await client.data<{ postMessage: { run: { id: string } } }>(
      'mutation ($s: ID!, $t: String!) { postMessage(input: { sessionId: $s, text: $t }) { ... on PostMessageSuccess { run { id } } } }',
      { s: sessionId, t: text },
    );
    await settledRuns(client, sessionId);
    return postMessage.run.id;
  }

  async function pendingId(sessionId: string): Promise<string> {
    const { session } = await client.data<{ session: { pendingProposal: { id: string } } }>('query ($id: ID!) { session(id: $id) { pendingProposal { id } } }', {
      id: sessionId,
    });
    return session.pendingProposal.id;
  }

  it("the agent's proposal leaves nothing behind when any of its writes fails, and is made once its run is retried", async () => {
    const session = await askSession('fragile proposal');
    await post(session, '/continue First try');
    const first = await pendingId(session);
    // The turn proposing again fails at first, then again at each step when retried.
    const held = await injectFault(sql, accountId, ['held back', 'continuation_proposals', 'INSERT', 'true']);
    const runId = await post(session, '/continue Second try');
    await held();
    await failingAt(PROPOSE_STEPS, session, async (step) => {
      await client.data('mutation ($id: ID!) { retryRun(runId: $id) { id } }', { id: runId });
      await settledRuns(client, session);
      const run = (await runsOf(client, session)).find((candidate) => candidate.id === runId)!;
      expect({ step, status: run.status, error: run.error }).toEqual({ step, status: 'FAILED', error: expect.stringContaining(step) });
    });
    await client.data('mutation ($id: ID!) { retryRun(runId: $id) { id } }', { id: runId });
    await settledRuns(client, session);
    expect((await state(session)).proposals).toEqual(['EXPIRED', 'PENDING']);
    expect(await pendingId(session)).not.toBe(first);
  });

  it('an approval leaves nothing behind and the proposal pending when any of its writes fails', async () => {
    const session = await askSession('fragile approval');
    await post(session, 'We keep the notes short.');
    await post(session, '/continue Next phase');
    const proposalId = await pendingId(session);
    const APPROVE = `mutation ($id: ID!) { approveContinuation(input: { proposalId: $id, title: "Edited" }) { __typename ... on ContinueSessionSuccess { successor { id } } } }`;
    await failingAt(APPROVE_STEPS, session, async (step) => {
      const response = await client.request(APPROVE, { id: proposalId });
      expect({ step, errors: response.errors?.map((error) => error.extensions?.code) }).toEqual({ step, errors: ['INTERNAL_SERVER_ERROR'] });
    });
    const approved = await client.data<{ approveContinuation: { __typename: string; successor?: { id: string } } }>(APPROVE, { id: proposalId });
    expect(approved.approveContinuation.__typename).toBe('ContinueSessionSuccess');
    expect(await state(session)).toMatchObject({ proposals: ['APPROVED'], status: 'CONTINUED' });
    // The successor's first turn writes to the account: settled here, so that the next test's counts of the account hold still.
    await settledRuns(client, approved.approveContinuation.successor!.id);
  });

  it('a rejection leaves nothing behind and the proposal pending when any of its writes fails', async () => {
    const session = await askSession('fragile rejection');
    await post(session, '/continue Next phase');
    const proposalId = await pendingId(session);
    const REJECT = `mutation ($id: ID!) { rejectContinuation(proposalId: $id, note: "not now") { status } }`;
    await failingAt(REJECT_STEPS, session, async (step) => {
      const response = await client.request(REJECT, { id: proposalId });
      expect({ step, errors: response.errors?.map((error) => error.extensions?.code) }).toEqual({ step, errors: ['INTERNAL_SERVER_ERROR'] });
    });
    await client.data(REJECT, { id: proposalId });
    await settledRuns(client, session);
    expect(await state(session)).toMatchObject({ proposals: ['REJECTED'], status: 'ACTIVE' });
  });
});
