import { Client } from 'pg';
import { GraphQLTestClient } from './graphql-client';

export interface RunView {
  id: string;
  kind: string;
  status: string;
  error: string | null;
  attempt: number;
  toolCallId: string | null;
  childSession: { id: string } | null;
}

export interface EventView {
  id: string;
  seq: number;
  kind: string;
  text: string | null;
  data: Record<string, unknown> | null;
  toolCallId: string | null;
}

const RUN_FIELDS = 'id kind status error attempt toolCallId childSession { id }';

export async function runsOf(client: GraphQLTestClient, sessionId: string): Promise<RunView[]> {
  const { session } = await client.data<{ session: { runs: RunView[] } }>(`query ($id: ID!) { session(id: $id) { runs { ${RUN_FIELDS} } } }`, {
    id: sessionId,
  });
  return session.runs;
}

/** Waits until every run of the session has settled (none queued or running), and returns them. */
export async function settledRuns(client: GraphQLTestClient, sessionId: string, timeoutMs = 15_000): Promise<RunView[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const runs = await runsOf(client, sessionId);
    if (runs.length > 0 && runs.every((run) => run.status !== 'QUEUED' && run.status !== 'RUNNING')) return runs;
    if (Date.now() > deadline) throw new Error(`Runs of ${sessionId} did not settle: ${JSON.stringify(runs)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export async function eventsOf(client: GraphQLTestClient, sessionId: string): Promise<EventView[]> {
  const { session } = await client.data<{ session: { events: { edges: { node: EventView }[] } } }>(
    `query ($id: ID!) { session(id: $id) { events(first: 100) { edges { node { id seq kind text data toolCallId } } } } }`,
    { id: sessionId },
  );
  return session.events.edges.map((edge) => edge.node);
}

export const SESSION_FIELDS = `id kind status title
  continuations { id reason actor successor { id title } manifest { id tokenBudget tokenCost context { sections { kind text } } } }`;

export interface SessionView {
  id: string;
  kind: string;
  status: string;
  title: string;
  continuations: {
    id: string;
    reason: string;
    actor: string;
    successor: { id: string; title: string };
    manifest: { id: string; tokenBudget: number; tokenCost: number; context: { sections: { kind: string; text: string }[] } };
  }[];
}

export async function sessionOf(client: GraphQLTestClient, sessionId: string): Promise<SessionView> {
  const { session } = await client.data<{ session: SessionView }>(`query ($id: ID!) { session(id: $id) { ${SESSION_FIELDS} } }`, { id: sessionId });
  return session;
}

/** Until no run of the database is queued or running (a killed process's leases expire and are claimed again). */
export async function runsSettled(databaseUrl: string, timeoutMs: number): Promise<void> {
  const sql = new Client({ connectionString: databaseUrl });
  await sql.connect();
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { rows } = await sql.query(`SELECT count(*)::int AS n FROM runs WHERE status IN ('QUEUED', 'RUNNING')`);
      if (rows[0].n === 0) return;
      if (Date.now() > deadline) throw new Error(`${rows[0].n} runs did not settle`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await sql.end();
  }
}
