import './production';
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { Corpus, generateCorpus } from './corpus';
import { GraphQLClient } from './graphql';
import { log, runOnNewDatabase, startBenchServer } from './harness';
import { postOverHttp } from './post-message';
import { fixed, spread, table } from './stats';

/**
 * Projection quality and search recall on a generated corpus: a lineage of 10 sessions of 220
 * messages with 50 planted facts, each later needed by a request in other words. For every fact
 * and budget it measures whether the fact reaches the successor's first context under (a) tail
 * truncation, (b) the compiler with the citation an agent makes without help (the current
 * session's conversation), and (c) the same with assisted selection; and whether searchEvents
 * finds the fact for the request within the first 1 and 5 hits, beside a strict all-words query.
 */
const BUDGETS = [2_000, 4_000, 8_000];
const SEEDS = (process.env.QUALITY_SEEDS ?? '1,2,3').split(',').map(Number);
const ASSIST_TARGET = 0.9;
const ASSIST_OVER_TAIL = 3;
const RECALL_TARGET = 0.95;

const PREVIEW = `query ($input: ContinueSessionInput!) { previewProjection(input: $input) {
  __typename
  ... on ProjectionPreview { tokenCost context { sections { kind text } } }
  ... on OperationError { code message }
} }`;

const SEARCH = `query ($query: String!, $sessionId: ID!) {
  searchEvents(query: $query, sessionId: $sessionId, first: 5) { edges { node { event { text } } } }
}`;

interface Lineage {
  sessionIds: string[];
  /** Every event of the lineage in conversation order, with its tokens: what a plain context window holds. */
  timeline: { text: string; tokens: number }[];
}

/** The corpus written through the API: each session's messages, then a continuation into the next. */
async function writeLineage(client: GraphQLClient, sql: Pool, corpus: Corpus): Promise<Lineage> {
  const { createSession } = await client.data<{ createSession: { id: string } }>('mutation { createSession(input: { title: "Operations" }) { id } }');
  const sessionIds = [createSession.id];
  for (const [index, messages] of corpus.sessions.entries()) {
    const sessionId = sessionIds[index];
    for (const text of messages) await postOverHttp(client, sessionId, text);
    if (index === corpus.sessions.length - 1) break;
    const first = (await sql.query('SELECT id FROM events WHERE session_id = $1 ORDER BY seq LIMIT 1', [sessionId])).rows[0].id;
    const last = (await sql.query('SELECT id FROM events WHERE session_id = $1 ORDER BY seq DESC LIMIT 1', [sessionId])).rows[0].id;
    const { continueSession } = await client.data<{ continueSession: { successor?: { id: string }; code?: string; message?: string } }>(
      `mutation ($input: ContinueSessionInput!) { continueSession(input: $input) {
        ... on ContinueSessionSuccess { successor { id } } ... on OperationError { code message } } }`,
      {
        input: {
          sessionId,
          idempotencyKey: randomUUID(),
          reason: 'PHASE_CHANGE',
          title: `Operations, part ${index + 2}`,
          handoff: { purpose: 'Carry on with operations work', currentRequest: messages[messages.length - 1] },
          sources: [{ kind: 'SESSION_EVENTS', sessionId, fromEventId: first, toEventId: last, relevance: 'the conversation so far' }],
        },
      },
    );
    if (!continueSession.successor) throw new Error(`continueSession failed: ${continueSession.code} ${continueSession.message}`);
    sessionIds.push(continueSession.successor.id);
    // No agent runs here: the successor's first turn is settled as an agent would have answered it.
    await sql.query(`UPDATE runs SET status = 'SUCCEEDED' WHERE session_id = $1`, [continueSession.successor.id]);
  }
  const { rows } = await sql.query(
    `SELECT event.text, event.token_count FROM events event JOIN sessions session ON session.id = event.session_id
     WHERE session.id = ANY($1::uuid[]) AND event.replay_of_id IS NULL AND event.kind = 'USER_MESSAGE'
     ORDER BY session.lineage_depth, event.seq`,
    [sessionIds],
  );
  return { sessionIds, timeline: rows.map((row) => ({ text: row.text, tokens: row.token_count })) };
}

/** What a context window of `budget` tokens holds of the conversation: its last events that fit. */
function tailTruncation(timeline: Lineage['timeline'], budget: number): string {
  const kept: string[] = [];
  let used = 0;
  for (let index = timeline.length - 1; index >= 0 && used + timeline[index].tokens <= budget; index--) {
    kept.push(timeline[index].text);
    used += timeline[index].tokens;
  }
  return kept.join('\n');
}

interface Measured {
  carried: Record<'tail' | 'cited' | 'assisted', Record<number, number>>;
  recallAt1: number;
  recallAt5: number;
  strictRecallAt5: number;
  duplicates: number;
}

async function measureSeed(client: GraphQLClient, sql: Pool, seed: number): Promise<Measured> {
  const corpus = generateCorpus(seed);
  log(`Seed ${seed}: writing a lineage of ${corpus.sessions.length} sessions, ${corpus.sessions.flat().length} messages...`);
  const lineage = await writeLineage(client, sql, corpus);
  const last = lineage.sessionIds[lineage.sessionIds.length - 1];
  const carried: Measured['carried'] = { tail: {}, cited: {}, assisted: {} };
  for (const strategy of ['tail', 'cited', 'assisted'] as const) for (const budget of BUDGETS) carried[strategy][budget] = 0;
  let recallAt1 = 0;
  let recallAt5 = 0;
  let strictRecallAt5 = 0;
  let duplicates = 0;

  log(`Seed ${seed}: searching and previewing for ${corpus.facts.length} requests...`);
  const firstOfLast = (await sql.query('SELECT id FROM events WHERE session_id = $1 ORDER BY seq LIMIT 1', [last])).rows[0].id;
  // Every search first, on the corpus alone: the requests posted for the previews below would
  // otherwise be found by the next, similar requests.
  for (const fact of corpus.facts) {
    const { searchEvents } = await client.data<{ searchEvents: { edges: { node: { event: { text: string } } }[] } }>(SEARCH, {
      query: fact.request,
      sessionId: last,
    });
    const found = searchEvents.edges.map((edge) => edge.node.event.text).indexOf(fact.text);
    if (found === 0) recallAt1 += 1;
    if (found >= 0) recallAt5 += 1;
    const strict = await sql.query(
      `SELECT text FROM events
       WHERE session_id = ANY($2::uuid[]) AND search_vector @@ websearch_to_tsquery('english', $1)
       ORDER BY ts_rank_cd(search_vector, websearch_to_tsquery('english', $1), 1) DESC LIMIT 5`,
      [fact.request, lineage.sessionIds],
    );
    if (strict.rows.some((row) => row.text === fact.text)) strictRecallAt5 += 1;
  }
  for (const fact of corpus.facts) {
    // The request arrives in the last session; the successor is previewed from it.
    await postOverHttp(client, last, fact.request);
    const lastEvent = (await sql.query('SELECT id FROM events WHERE session_id = $1 ORDER BY seq DESC LIMIT 1 OFFSET 1', [last])).rows[0].id;
    for (const budget of BUDGETS) {
      if (tailTruncation([...lineage.timeline, { text: fact.request, tokens: 20 }], budget).includes(fact.text)) carried.tail[budget] += 1;
      for (const assist of [false, true]) {
        const { previewProjection } = await client.data<{
          previewProjection: { __typename: string; context?: { sections: { text: string }[] }; code?: string; message?: string };
        }>(PREVIEW, {
          input: {
            sessionId: last,
            idempotencyKey: randomUUID(),
            reason: 'TOPIC_CHANGE',
            title: 'Follow-up',
            tokenBudget: budget,
            assist,
            handoff: { purpose: `Answer: ${fact.request}`, currentRequest: fact.request },
            sources: [{ kind: 'SESSION_EVENTS', sessionId: last, fromEventId: firstOfLast, toEventId: lastEvent, relevance: 'the conversation before this request' }],
          },
        });
        if (!previewProjection.context) throw new Error(`previewProjection failed: ${previewProjection.code} ${previewProjection.message}`);
        const text = previewProjection.context.sections.map((section) => section.text).join('\n');
        if (text.includes(fact.text)) carried[assist ? 'assisted' : 'cited'][budget] += 1;
        const ids = [...text.matchAll(/\[event ([0-9a-f-]{36}) seq/g)].map((match) => match[1]);
        duplicates += ids.length - new Set(ids).size;
      }
    }
  }
  const share = (count: number) => count / corpus.facts.length;
  for (const strategy of ['tail', 'cited', 'assisted'] as const) for (const budget of BUDGETS) carried[strategy][budget] = share(carried[strategy][budget]);
  return { carried, recallAt1: share(recallAt1), recallAt5: share(recallAt5), strictRecallAt5: share(strictRecallAt5), duplicates };
}

function report(results: Measured[]) {
  const cell = (values: number[]) => {
    const { min, median, max } = spread(values);
    return `${fixed(min, 2)} / ${fixed(median, 2)} / ${fixed(max, 2)}`;
  };
  console.log(`\nProjection quality: share of the 50 needed facts in the successor's first context, min / median / max over seeds ${SEEDS.join(', ')}\n`);
  console.log(
    table(
      ['budget', '(a) tail truncation', '(b) cited only', '(c) assist: true', '(c) / (a)'],
      BUDGETS.map((budget) => {
        const ratios = results.map((result) => result.carried.assisted[budget] / Math.max(result.carried.tail[budget], 1 / 50));
        return [
          String(budget),
          cell(results.map((result) => result.carried.tail[budget])),
          cell(results.map((result) => result.carried.cited[budget])),
          cell(results.map((result) => result.carried.assisted[budget])),
          cell(ratios),
        ];
      }),
    ),
  );
  const assisted4k = spread(results.map((result) => result.carried.assisted[4_000])).median;
  const over = spread(results.map((result) => result.carried.assisted[4_000] / Math.max(result.carried.tail[4_000], 1 / 50))).median;
  console.log(
    `\ntarget at 4,000 tokens: (c) >= ${ASSIST_TARGET}: ${assisted4k >= ASSIST_TARGET ? 'met' : 'NOT MET'}; ` +
      `(c) >= ${ASSIST_OVER_TAIL} x (a): ${over >= ASSIST_OVER_TAIL ? 'met' : 'NOT MET'} (a share of 0 counts as 1 fact)`,
  );
  console.log('\nsearchEvents over the 10-session lineage, the 50 requests as queries\n');
  console.log(
    table(
      ['measure', 'min / median / max'],
      [
        ['recall@1', cell(results.map((result) => result.recallAt1))],
        ['recall@5', cell(results.map((result) => result.recallAt5))],
        ['recall@5, strict all-words query (websearch_to_tsquery as typed)', cell(results.map((result) => result.strictRecallAt5))],
      ],
    ),
  );
  const recall5 = spread(results.map((result) => result.recallAt5)).median;
  const duplicates = results.reduce((sum, result) => sum + result.duplicates, 0);
  console.log(
    `\ntarget recall@5 >= ${RECALL_TARGET}: ${recall5 >= RECALL_TARGET ? 'met' : 'NOT MET'}` +
      `\nevents shown twice in a compiled context, over all ${results.length * 50 * BUDGETS.length * 2} previews: ${duplicates} (target 0)`,
  );
}

runOnNewDatabase(async (databaseUrl) => {
  const app = await startBenchServer(databaseUrl, { poolSize: 4 });
  const sql = new Pool({ connectionString: databaseUrl, max: 2 });
  const admin = new GraphQLClient(app.url, app.bootstrapKey.apiKey);
  try {
    const results: Measured[] = [];
    for (const seed of SEEDS) {
      // Each seed in an account of its own, so that no lineage sees another's facts.
      const { createAccount } = await admin.data<{ createAccount: { apiKey: string } }>(
        'mutation ($name: String!) { createAccount(name: $name) { apiKey } }',
        { name: `quality ${seed}` },
      );
      const client = new GraphQLClient(app.url, createAccount.apiKey);
      results.push(await measureSeed(client, sql, seed));
      client.close();
    }
    report(results);
  } finally {
    admin.close();
    await sql.end();
    await app.close();
  }
});
