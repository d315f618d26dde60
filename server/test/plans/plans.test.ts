import { GraphQLTestClient } from '../helpers/graphql-client';
import { continuation, continueSession, createSession, postMessage } from '../helpers/continuations';
import { startTestServer, TestServer } from '../helpers/test-server';

const UPDATE = `mutation ($input: UpdatePlanInput!) { updatePlan(input: $input) { revision closed steps { id title status } } }`;
const PLAN = 'query ($id: ID!) { session(id: $id) { plan { revision closed steps { id title status } } } }';

type Plan = { revision: number; closed: boolean; steps: { id: string; title: string; status: string }[] };

describe('plans', () => {
  let server: TestServer;
  let client: GraphQLTestClient;

  beforeAll(async () => {
    server = await startTestServer();
    client = await server.newAccount('planner');
  });
  afterAll(() => server.close());

  async function sessionWithPlan(): Promise<{ sessionId: string; plan: Plan }> {
    const sessionId = await createSession(client, 'planned');
    await postMessage(client, sessionId, 'make a plan');
    const { updatePlan } = await client.data<{ updatePlan: Plan }>(UPDATE, {
      input: {
        sessionId,
        steps: [
          { id: 'design', title: 'Design the schema', status: 'DONE' },
          { title: 'Write the migration', status: 'IN_PROGRESS' },
          { title: 'Benchmark it', status: 'PENDING' },
        ],
      },
    });
    return { sessionId, plan: updatePlan };
  }

  it('writes revisions, keeps step ids, and refuses a stale expectedRevision', async () => {
    const { sessionId, plan } = await sessionWithPlan();
    expect(plan.revision).toBe(1);
    expect(plan.steps[0]).toEqual({ id: 'design', title: 'Design the schema', status: 'DONE' });
    expect(plan.steps[1].id).toMatch(/^[0-9a-f-]{36}$/);

    const second = await client.data<{ updatePlan: Plan }>(UPDATE, {
      input: { sessionId, expectedRevision: 1, steps: plan.steps.map((step) => ({ ...step, status: 'DONE' })) },
    });
    expect(second.updatePlan).toMatchObject({ revision: 2, closed: false });
    expect(second.updatePlan.steps.map((step) => step.id)).toEqual(plan.steps.map((step) => step.id));

    const stale = await client.request(UPDATE, { input: { sessionId, expectedRevision: 1, steps: [] } });
    expect(stale.errors?.[0]).toMatchObject({
      message: expect.stringMatching(/revision 2, not 1/),
      extensions: { code: 'INVALID_INPUT', details: [{ path: ['input', 'expectedRevision'] }] },
    });
    const { session } = await client.data<{ session: { plan: Plan } }>(PLAN, { id: sessionId });
    expect(session.plan.revision).toBe(2);
  });

  it('refuses malformed steps and unknown sessions, writing nothing', async () => {
    const { sessionId } = await sessionWithPlan();
    const duplicate = await client.request(UPDATE, {
      input: { sessionId, steps: [{ id: 'a', title: 'one', status: 'PENDING' }, { id: 'a', title: 'two', status: 'PENDING' }] },
    });
    expect(duplicate.errors?.[0].extensions).toMatchObject({ code: 'INVALID_INPUT', details: [{ path: ['input', 'steps', '1', 'id'] }] });
    const unknown = await client.request(UPDATE, { input: { sessionId: '5b8a0c3e-1f2d-4e5f-8a9b-0c1d2e3f4a5b', steps: [] } });
    expect(unknown.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const { session } = await client.data<{ session: { plan: Plan } }>(PLAN, { id: sessionId });
    expect(session.plan.revision).toBe(1);
  });

  it('CARRY gives the successor the same step ids and statuses and records the source revision', async () => {
    const { sessionId, plan } = await sessionWithPlan();
    const result = await continueSession(client, continuation(sessionId, { transfer: { plan: 'CARRY' } }));
    const { session } = await client.data<any>(
      `query ($id: ID!) { session(id: $id) { plan { revision closed steps { id title status } }
        continuedFrom { manifest { transferredState { plan planRevision } context { sections { kind text } } } } } }`,
      { id: result.successor!.id },
    );
    expect(session.plan).toEqual({ revision: 1, closed: false, steps: plan.steps });
    expect(session.continuedFrom.manifest.transferredState).toEqual({ plan: 'CARRY', planRevision: 1 });
    const state = session.continuedFrom.manifest.context.sections.find((section: any) => section.kind === 'STATE');
    expect(state.text).toContain('[IN_PROGRESS] Write the migration');
    const predecessor = await client.data<{ session: { plan: Plan } }>(PLAN, { id: sessionId });
    expect(predecessor.session.plan).toMatchObject({ revision: 1, closed: false });
  });

  it('CLOSE closes the predecessor plan and leaves the successor without one; OMIT leaves both alone', async () => {
    const closing = await sessionWithPlan();
    const closed = await continueSession(client, continuation(closing.sessionId, { transfer: { plan: 'CLOSE' } }));
    const afterClose = await client.data<any>(
      'query ($p: ID!, $s: ID!) { p: session(id: $p) { plan { revision closed } } s: session(id: $s) { plan { revision } } }',
      { p: closing.sessionId, s: closed.successor!.id },
    );
    expect(afterClose).toEqual({ p: { plan: { revision: 2, closed: true } }, s: { plan: null } });

    const omitting = await sessionWithPlan();
    const omitted = await continueSession(client, continuation(omitting.sessionId));
    const afterOmit = await client.data<any>(
      'query ($p: ID!, $s: ID!) { p: session(id: $p) { plan { revision closed } } s: session(id: $s) { plan { revision } } }',
      { p: omitting.sessionId, s: omitted.successor!.id },
    );
    expect(afterOmit).toEqual({ p: { plan: { revision: 1, closed: false } }, s: { plan: null } });
  });

  it('refuses to carry or close a plan that does not exist', async () => {
    const sessionId = await createSession(client, 'no plan');
    await postMessage(client, sessionId, 'hi');
    const result = await continueSession(client, continuation(sessionId, { transfer: { plan: 'CARRY' } }));
    expect(result).toMatchObject({ code: 'INVALID_INPUT', details: [{ path: ['input', 'transfer', 'plan'] }] });
  });
});
