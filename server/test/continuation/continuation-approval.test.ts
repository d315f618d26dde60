import { collect, GraphQLTestClient } from '../helpers/graphql-client';
import { continuation, continueSession, subscribed } from '../helpers/continuations';
import { eventsOf, runsOf, sessionOf, settledRuns } from '../helpers/runs';
import { startTestServer, TestServer } from '../helpers/test-server';
import { DEFAULT_AGENT_CONFIG } from '../../src/config';
import { verifyDatabase } from '../../src/modules/integrity/integrity.service';
import { DEFAULT_APPROVAL_SETTINGS } from '../../src/modules/continuation/proposals.service';
import type { Violation } from '../../src/modules/integrity/invariants';

const BUILTIN = { ...DEFAULT_AGENT_CONFIG, provider: 'builtin' as const, pollMs: 50 };

const PROPOSAL_FIELDS = `id status reason title note expiresAt decidedAt
  handoff { purpose currentRequest }
  preview { tokenBudget tokenCost items { kind status origin } }
  edge { id actor successor { id title } }
  session { id status }`;

interface ProposalView {
  id: string;
  status: string;
  reason: string;
  title: string;
  note: string | null;
  expiresAt: string;
  decidedAt: string | null;
  handoff: { purpose: string; currentRequest: string };
  preview: { tokenBudget: number; tokenCost: number; items: { kind: string; status: string; origin: string }[] };
  edge: { id: string; actor: string; successor: { id: string; title: string } } | null;
  session: { id: string; status: string };
}

const APPROVE = `mutation ($input: ApproveContinuationInput!) { approveContinuation(input: $input) {
  __typename
  ... on ContinueSessionSuccess { replayed edge { id actor reason handoff { purpose } manifest { proposal { id title handoff { purpose } } } } successor { id title continuationApproval } }
  ... on OperationError { code message details { path message } }
} }`;

interface ApproveResult {
  __typename: 'ContinueSessionSuccess' | 'OperationError';
  replayed?: boolean;
  edge?: { id: string; actor: string; reason: string; handoff: { purpose: string }; manifest: { proposal: { id: string; title: string; handoff: { purpose: string } } | null } };
  successor?: { id: string; title: string; continuationApproval: string };
  code?: string;
  message?: string;
}

const REJECT = `mutation ($id: ID!, $note: String) { rejectContinuation(proposalId: $id, note: $note) { ${PROPOSAL_FIELDS} } }`;

async function approve(client: GraphQLTestClient, input: Record<string, unknown>): Promise<ApproveResult> {
  return (await client.data<{ approveContinuation: ApproveResult }>(APPROVE, { input })).approveContinuation;
}

async function askSession(client: GraphQLTestClient, title: string): Promise<string> {
  const { createSession } = await client.data<{ createSession: { id: string; continuationApproval: string } }>(
    'mutation ($t: String!) { createSession(input: { title: $t, continuationApproval: ASK }) { id continuationApproval } }',
    { t: title },
  );
  expect(createSession.continuationApproval).toBe('ASK');
  return createSession.id;
}

async function say(client: GraphQLTestClient, sessionId: string, text: string): Promise<void> {
  await client.data(
    `mutation ($s: ID!, $t: String!) { postMessage(input: { sessionId: $s, text: $t }) { __typename ... on OperationError { code } } }`,
    { s: sessionId, t: text },
  );
  await settledRuns(client, sessionId);
}

async function pendingOf(client: GraphQLTestClient, sessionId: string): Promise<ProposalView | null> {
  const { session } = await client.data<{ session: { pendingProposal: ProposalView | null } }>(
    `query ($id: ID!) { session(id: $id) { pendingProposal { ${PROPOSAL_FIELDS} } } }`,
    { id: sessionId },
  );
  return session.pendingProposal;
}

async function proposalOf(client: GraphQLTestClient, id: string): Promise<ProposalView> {
  return (await client.data<{ continuationProposal: ProposalView }>(`query ($id: ID!) { continuationProposal(id: $id) { ${PROPOSAL_FIELDS} } }`, { id }))
    .continuationProposal;
}

/** An ASK session whose agent proposed to continue into "Next phase". */
async function proposed(client: GraphQLTestClient, title: string): Promise<{ session: string; proposal: ProposalView }> {
  const session = await askSession(client, title);
  await say(client, session, 'We will use PostgreSQL for storage.');
  await say(client, session, '/continue Next phase');
  return { session, proposal: (await pendingOf(client, session))! };
}

describe('approval of agent-initiated continuations', () => {
  let server: TestServer;
  let client: GraphQLTestClient;
  const sql = (text: string, parameters: unknown[] = []) => server.app.database.dataSource.query(text, parameters);

  beforeAll(async () => {
    server = await startTestServer({ agent: BUILTIN });
    client = await server.newAccount('approval');
  });
  afterAll(() => server.close());

  it('sessions continue automatically unless created or set to ASK; a successor inherits its predecessor\'s mode', async () => {
    const { createSession } = await client.data<{ createSession: { id: string; continuationApproval: string } }>(
      'mutation { createSession(input: { title: "plain" }) { id continuationApproval } }',
    );
    expect(createSession.continuationApproval).toBe('AUTOMATIC');
    const { setContinuationApproval } = await client.data<{ setContinuationApproval: { continuationApproval: string } }>(
      'mutation ($s: ID!) { setContinuationApproval(sessionId: $s, approval: ASK) { continuationApproval } }',
      { s: createSession.id },
    );
    expect(setContinuationApproval.continuationApproval).toBe('ASK');
    const other = await server.newAccount('stranger');
    const refused = await other.request('mutation ($s: ID!) { setContinuationApproval(sessionId: $s, approval: AUTOMATIC) { id } }', { s: createSession.id });
    expect(refused.errors?.[0].extensions?.code).toBe('NOT_FOUND');

    await say(client, createSession.id, '/continue Inherited');
    const proposal = (await pendingOf(client, createSession.id))!;
    const approved = await approve(client, { proposalId: proposal.id });
    expect(approved.successor).toMatchObject({ title: 'Inherited', continuationApproval: 'ASK' });
  });

  it('/continue in an ASK session makes a pending proposal, not a successor: the turn ends and the session stays ACTIVE', async () => {
    const session = await askSession(client, 'Design');
    await say(client, session, 'We will use PostgreSQL for storage.');
    const ws = client.websocket();
    const proposals = collect<{ continuationProposals: { id: string; status: string; title: string } }>(
      ws,
      'subscription ($s: ID!) { continuationProposals(sessionId: $s) { id status title } }',
      { s: session },
    );
    await subscribed(server, 'CONTINUATION_PROPOSAL', session);

    await say(client, session, '/continue Next phase');
    const view = await sessionOf(client, session);
    expect(view.status).toBe('ACTIVE');
    expect(view.continuations).toEqual([]);
    expect((await runsOf(client, session)).map((run) => run.status)).toEqual(['SUCCEEDED', 'SUCCEEDED']);

    const proposal = (await pendingOf(client, session))!;
    expect(proposal).toMatchObject({ status: 'PENDING', reason: 'USER_REQUEST', title: 'Next phase', decidedAt: null, edge: null });
    expect(proposal.handoff.currentRequest).toContain('/continue Next phase');
    expect(Date.parse(proposal.expiresAt) - Date.now()).toBeGreaterThan(DEFAULT_APPROVAL_SETTINGS.proposalTtlMs - 60_000);
    // The preview shows what approving would carry: the cited conversation and the runtime's own items.
    expect(proposal.preview.tokenCost).toBeLessThanOrEqual(proposal.preview.tokenBudget);
    expect(proposal.preview.items).toContainEqual({ kind: 'SESSION_EVENTS', status: 'INCLUDED', origin: 'CITED' });

    const events = await eventsOf(client, session);
    expect(events.slice(-4).map((event) => event.kind)).toEqual(['USER_MESSAGE', 'TOOL_CALL', 'TOOL_RESULT', 'SYSTEM']);
    const [call, result, note] = events.slice(-3);
    expect(result.toolCallId).toBe(call.toolCallId);
    expect(JSON.parse(result.text!)).toMatchObject({ status: 'awaiting_approval', proposalId: proposal.id });
    expect(note.data).toEqual({ role: 'continuation_proposal', proposalId: proposal.id });

    await proposals.until(1);
    expect(proposals.values).toEqual([{ continuationProposals: { id: proposal.id, status: 'PENDING', title: 'Next phase' } }]);
    await ws.dispose();
  });

  it('approving with an edited title creates that successor by the USER, keeps the agent\'s draft beside it, and is idempotent', async () => {
    const { session, proposal } = await proposed(client, 'Planning');
    const ws = client.websocket();
    const continued = collect<{ sessionContinued: { successor: { id: string } } }>(ws, 'subscription ($s: ID) { sessionContinued(sessionId: $s) { successor { id } } }', {
      s: session,
    });
    const proposals = collect<{ continuationProposals: { status: string; edge: { id: string } | null } }>(
      ws,
      'subscription ($s: ID!) { continuationProposals(sessionId: $s) { status edge { id } } }',
      { s: session },
    );
    await subscribed(server, 'SESSION_CONTINUED', session);
    await subscribed(server, 'CONTINUATION_PROPOSAL', session);

    const handoff = { purpose: 'Plan the next phase, as the person put it', currentRequest: '/continue Next phase' };
    const approved = await approve(client, { proposalId: proposal.id, title: 'Phase two', handoff });
    expect(approved).toMatchObject({
      __typename: 'ContinueSessionSuccess',
      replayed: false,
      edge: { actor: 'USER', reason: 'USER_REQUEST', handoff: { purpose: handoff.purpose } },
      successor: { title: 'Phase two' },
    });
    // Both stay inspectable: the edited handoff on the edge, the agent's draft through the manifest's proposal.
    expect(approved.edge!.manifest.proposal).toEqual({ id: proposal.id, title: 'Next phase', handoff: { purpose: proposal.handoff.purpose } });

    await continued.until(1);
    expect(continued.values[0].sessionContinued.successor.id).toBe(approved.successor!.id);
    await proposals.until(1);
    expect(proposals.values).toEqual([{ continuationProposals: { status: 'APPROVED', edge: { id: approved.edge!.id } } }]);

    expect(await proposalOf(client, proposal.id)).toMatchObject({
      status: 'APPROVED',
      edge: { id: approved.edge!.id, actor: 'USER', successor: { id: approved.successor!.id, title: 'Phase two' } },
      session: { id: session, status: 'CONTINUED' },
    });
    expect(await pendingOf(client, session)).toBeNull();
    const again = await approve(client, { proposalId: proposal.id, title: 'Something else' });
    expect(again).toMatchObject({ replayed: true, edge: { id: approved.edge!.id }, successor: { id: approved.successor!.id } });

    // The successor answers the request, as after an agent's own continuation.
    await settledRuns(client, approved.successor!.id);
    expect((await eventsOf(client, approved.successor!.id)).map((event) => event.kind)).toEqual(['CONTINUATION', 'USER_MESSAGE', 'ASSISTANT_MESSAGE']);
    const rejected = await client.request(REJECT, { id: proposal.id, note: 'too late' });
    expect(rejected.errors?.[0]).toMatchObject({ message: 'The proposal was already approved.', extensions: { code: 'INVALID_INPUT' } });
    await ws.dispose();
  });

  it('rejecting with a note gets the agent\'s answer in place, which takes the note into account', async () => {
    const { session, proposal } = await proposed(client, 'Budget');
    const { rejectContinuation } = await client.data<{ rejectContinuation: ProposalView }>(REJECT, { id: proposal.id, note: 'Stay here, we are nearly done.' });
    expect(rejectContinuation).toMatchObject({ status: 'REJECTED', note: 'Stay here, we are nearly done.', edge: null });
    expect(rejectContinuation.decidedAt).not.toBeNull();
    await settledRuns(client, session);

    const events = await eventsOf(client, session);
    expect(events.slice(-2).map((event) => event.kind)).toEqual(['SYSTEM', 'ASSISTANT_MESSAGE']);
    expect(events[events.length - 2].data).toMatchObject({ role: 'continuation_rejected', proposalId: proposal.id, note: 'Stay here, we are nearly done.' });
    expect(events[events.length - 1].text).toContain('Stay here, we are nearly done.');
    expect((await sessionOf(client, session)).status).toBe('ACTIVE');
    expect(await pendingOf(client, session)).toBeNull();

    const refused = await approve(client, { proposalId: proposal.id });
    expect(refused).toMatchObject({ __typename: 'OperationError', code: 'INVALID_INPUT', message: 'The proposal was already rejected.' });
    const twice = await client.request(REJECT, { id: proposal.id });
    expect(twice.errors?.[0].extensions?.code).toBe('INVALID_INPUT');
  });

  it('a new message leaves the proposal pending; the agent proposing again supersedes it', async () => {
    const { session, proposal } = await proposed(client, 'Drafts');
    await say(client, session, 'One more thought before we move on.');
    expect((await pendingOf(client, session))!.id).toBe(proposal.id);

    await say(client, session, '/continue Final phase');
    const newer = (await pendingOf(client, session))!;
    expect(newer).toMatchObject({ status: 'PENDING', title: 'Final phase' });
    expect(newer.id).not.toBe(proposal.id);
    expect(await proposalOf(client, proposal.id)).toMatchObject({ status: 'EXPIRED' });
    expect(await approve(client, { proposalId: proposal.id })).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('expired') });
  });

  it('a person continuing the session by hand supersedes the waiting proposal, announced, so it cannot become a second successor', async () => {
    const { session, proposal } = await proposed(client, 'By hand');
    const ws = client.websocket();
    const proposals = collect<{ continuationProposals: { id: string; status: string } }>(
      ws,
      'subscription ($s: ID!) { continuationProposals(sessionId: $s) { id status } }',
      { s: session },
    );
    await subscribed(server, 'CONTINUATION_PROPOSAL', session);
    const continued = await continueSession(client, continuation(session, { title: 'My own way' }));
    expect(continued.successor).toBeTruthy();
    await proposals.until(1);
    expect(proposals.values.at(-1)!.continuationProposals).toEqual({ id: proposal.id, status: 'EXPIRED' });
    expect(await pendingOf(client, session)).toBeNull();
    expect(await approve(client, { proposalId: proposal.id })).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('expired') });
    expect((await sessionOf(client, session)).continuations).toHaveLength(1);
    await ws.dispose();
  });

  it('replaying the agent\'s tool call returns the same proposal and writes nothing again', async () => {
    const { session, proposal } = await proposed(client, 'Replay');
    const before = await eventsOf(client, session);
    const [run] = (await runsOf(client, session)).slice(-1);
    // As after a crash: the run is claimed again and the agent makes the same call.
    await sql(`UPDATE runs SET status = 'QUEUED', lease_owner = NULL, lease_expires_at = NULL WHERE id = $1`, [run.id]);
    const deadline = Date.now() + 10_000;
    while ((await runsOf(client, session)).find((candidate) => candidate.id === run.id)!.attempt < 2) {
      if (Date.now() > deadline) throw new Error('The run was not claimed again');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await settledRuns(client, session);
    expect(await eventsOf(client, session)).toEqual(before);
    expect((await pendingOf(client, session))!.id).toBe(proposal.id);
    const [{ count }] = await sql('SELECT count(*)::int AS count FROM continuation_proposals WHERE session_id = $1', [session]);
    expect(count).toBe(1);
  });

  it('concurrent approvals create one successor', async () => {
    const { session, proposal } = await proposed(client, 'Race');
    const results = await Promise.all(['A', 'B', 'C', 'D'].map((title) => approve(client, { proposalId: proposal.id, title })));
    expect(results.map((result) => result.__typename)).toEqual(Array(4).fill('ContinueSessionSuccess'));
    expect(new Set(results.map((result) => result.successor!.id)).size).toBe(1);
    expect(results.filter((result) => !result.replayed)).toHaveLength(1);
    expect((await sessionOf(client, session)).continuations).toHaveLength(1);
  });

  it('a proposal past its time is refused by the database, before any sweep has marked it', async () => {
    const { session, proposal } = await proposed(client, 'Late');
    await sql(`UPDATE continuation_proposals SET expires_at = now() - interval '1 second' WHERE id = $1`, [proposal.id]);
    expect((await sql('SELECT status FROM continuation_proposals WHERE id = $1', [proposal.id]))[0].status).toBe('PENDING');
    expect(await approve(client, { proposalId: proposal.id })).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('expired') });
    expect((await client.request(REJECT, { id: proposal.id })).errors?.[0].extensions?.code).toBe('INVALID_INPUT');
    expect(await proposalOf(client, proposal.id)).toMatchObject({ status: 'EXPIRED' });
    expect(await pendingOf(client, session)).toBeNull();
    expect((await sessionOf(client, session)).continuations).toEqual([]);
  });

  it('refuses the edits a continuation would refuse, writing nothing', async () => {
    const { session, proposal } = await proposed(client, 'Edits');
    const tooSmall = await approve(client, { proposalId: proposal.id, tokenBudget: 64 });
    expect(tooSmall).toMatchObject({ __typename: 'OperationError', code: 'INVALID_INPUT' });
    const missing = await approve(client, {
      proposalId: proposal.id,
      sources: [{ kind: 'SESSION_EVENT', relevance: 'gone', sessionId: session, eventId: '00000000-0000-4000-8000-000000000000' }],
    });
    expect(missing).toMatchObject({ code: 'SOURCE_NOT_FOUND' });
    expect(await approve(client, { proposalId: '00000000-0000-4000-8000-000000000000' })).toMatchObject({ code: 'NOT_FOUND' });
    expect((await pendingOf(client, session))!.id).toBe(proposal.id);
    expect((await sessionOf(client, session)).continuations).toEqual([]);
  });

  it("the verifier recomputes the hash of a manifest approved from a proposal, the agent's draft included", async () => {
    const { proposal } = await proposed(client, 'Verified');
    await approve(client, { proposalId: proposal.id, title: 'Checked' });
    const [manifest] = await sql('SELECT proposal FROM projection_manifests WHERE proposal IS NOT NULL AND proposal @> $1::jsonb', [
      JSON.stringify({ proposalId: proposal.id }),
    ]);
    expect(manifest.proposal.draft).toMatchObject({ title: 'Next phase', reason: 'USER_REQUEST' });
    const runner = server.app.database.dataSource.createQueryRunner();
    const violations: Violation[] = [];
    try {
      await verifyDatabase((text, parameters) => runner.query(text, parameters), { onViolation: (violation) => violations.push(violation) });
    } finally {
      await runner.release();
    }
    expect(violations).toEqual([]);
  });
});

describe('expiry of continuation proposals', () => {
  let server: TestServer;
  let client: GraphQLTestClient;

  beforeAll(async () => {
    server = await startTestServer({ agent: BUILTIN, approval: { ...DEFAULT_APPROVAL_SETTINGS, proposalTtlMs: 1_500 } });
    client = await server.newAccount('expiry');
  });
  afterAll(() => server.close());

  it('a proposal nobody decides expires at its time, announced to subscribers, and cannot be approved', async () => {
    const session = await askSession(client, 'Short-lived');
    const ws = client.websocket();
    const proposals = collect<{ continuationProposals: { status: string } }>(ws, 'subscription ($s: ID!) { continuationProposals(sessionId: $s) { status } }', {
      s: session,
    });
    await subscribed(server, 'CONTINUATION_PROPOSAL', session);
    await say(client, session, '/continue Later');
    const proposal = (await pendingOf(client, session))!;
    await proposals.until(2);
    expect(proposals.values.map((value) => value.continuationProposals.status)).toEqual(['PENDING', 'EXPIRED']);
    expect(await proposalOf(client, proposal.id)).toMatchObject({ status: 'EXPIRED' });
    expect(await approve(client, { proposalId: proposal.id })).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('expired') });
    await ws.dispose();
  });

  it('a proposal that expired while the server was down is not approved after the restart', async () => {
    const session = await askSession(client, 'Across a restart');
    await say(client, session, '/continue After the restart');
    const proposal = (await pendingOf(client, session))!;
    await server.restart();
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(proposal.expiresAt) - Date.now() + 100)));
    expect(await approve(client, { proposalId: proposal.id })).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('expired') });
    expect(await proposalOf(client, proposal.id)).toMatchObject({ status: 'EXPIRED' });
    expect((await sessionOf(client, session)).status).toBe('ACTIVE');
  });
});
