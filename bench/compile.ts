import { randomUUID } from 'node:crypto';
import { ClientBase, Pool } from 'pg';
import { RunningApp } from '../server/src/app';
import { PlanTransfer, SourceKind, lineageBlock, normalizeHandoff } from '../server/src/modules/continuation/continuations';
import { EventRangeRead, ManifestItemStatus, ProjectedEvent, ProjectionRequest } from '../server/src/modules/continuation/projection/model';
import { compileProjection } from '../server/src/modules/continuation/projection/compile';
import { EventKind, eventTokenCount } from '../server/src/modules/conversation/transcript';
import { AGENT_TOOLS } from '../server/src/shared/agent-tools';
import { GraphQLClient } from './graphql';
import { fixed, median, ratioCell, spread, Spread, table } from './stats';
import { chainMessages, insertMessages } from './transcript';

const COMPILE_SIZES = [1_000, 10_000, 100_000];
const TOKEN_BUDGET = 8_000;
const RUNS = 30;
const WARMUP = 3;
const COMPILE_TARGET = 1.5;
/**
 * Message texts repeat with this period in seq. Every size is a multiple of it, so the ranges a
 * request cites hold the same texts at every size: only the history before them differs.
 */
const TEXT_PERIOD = 500;
const START_RANGE = { from: 2, to: 301 };
const MIDDLE_EVENTS = 10;
const TAIL_EVENTS = 20;

const SENTENCES = [
  'The billing service still writes invoices and receipts to the same PostgreSQL cluster.',
  'Receipts are written once, read rarely, and make up most of the storage today.',
  'We agreed last week that invoices stay where they are.',
  'The nightly export job reads every receipt of the day and takes about forty minutes.',
  'Object storage would cut the database size by roughly two thirds.',
  'Can you check whether any report joins receipts with invoices directly?',
  'Three reports join them: monthly revenue, refunds by region and the tax export.',
  'The tax export has to keep working on the first of every month without exception.',
  'A dual-write period would let us compare both stores before the cut-over.',
  'Dual writes double the failure modes, so I would keep that window short.',
  'The copy job can run in batches of ten thousand receipts with a checkpoint after each.',
  'If a batch fails, the checkpoint lets the job resume without copying anything twice.',
  'Legal wants receipts kept for seven years, which the bucket policy must enforce.',
  'Deleting rows from PostgreSQL should wait until a full verification pass has succeeded.',
  'The verification compares a sha256 of every receipt in both stores.',
  'Read traffic for receipts peaks at the end of each quarter.',
  'The API returns a receipt by id; nothing lists receipts without a customer filter.',
  'We could serve receipts through signed URLs instead of proxying the bytes.',
  'Signed URLs expire, so the client has to ask again after fifteen minutes.',
  'Please draft the rollback for the step that switches reads to object storage.',
  'Rolling back the read switch is a configuration change and takes effect within a minute.',
  'The schema migration adds a nullable storage_key column before anything else moves.',
  'Once storage_key is filled for every row, the column becomes NOT NULL.',
  'I am not sure the refunds report can tolerate a receipt being briefly in both places.',
  'It can: the report reads the invoice totals, not the receipt bodies.',
  'What does the copy cost in egress if we run it from the current region?',
  'Within one region there is no egress charge, only the request fees.',
  'Let us keep a list of open questions at the end of each planning session.',
  'The on-call rotation needs a runbook for the copy job before it starts.',
  'Monitoring should alert when a batch takes more than twice the median time.',
  'Here is the order I would follow: schema change, copy, verify, switch reads, stop writes, clean up.',
  'Each step has its own rollback except the final clean-up, which is why it comes last.',
];

const HANDOFF = {
  purpose: 'Finish the receipts migration plan: the long design chat before this reached its context limit.',
  currentRequest: 'Turn the agreed steps into a runbook with a rollback for every step.',
  establishedFacts: ['Invoices stay in PostgreSQL.', 'Receipts are kept for seven years.', 'The tax export runs on the first of every month.'],
  decisions: ['Receipts move to object storage.', 'Reads switch before writes stop.'],
  openQuestions: ['Who signs off the cut-over date?'],
  nextActions: ['Write the runbook.', 'Add the batch-time alert.'],
  cautions: ['Delete receipts from PostgreSQL only after a full verification pass.'],
};

const PREVIEW = `query ($input: ContinueSessionInput!) { previewProjection(input: $input) {
  __typename
  ... on ProjectionPreview { tokenBudget tokenCost items { status fromEventId } }
  ... on OperationError { code message }
} }`;

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32): the same transcripts every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Message {
  text: string;
  tokenCount: number;
}

/** Texts of varied length, tokenized once here rather than once per event. */
function messagePool(next: () => number, count: number, minSentences: number, maxSentences: number): Message[] {
  return Array.from({ length: count }, () => {
    const length = minSentences + Math.floor(next() * (maxSentences - minSentences + 1));
    const text = Array.from({ length }, () => SENTENCES[Math.floor(next() * SENTENCES.length)]).join(' ');
    return { text, tokenCount: eventTokenCount(text, null) };
  });
}

/** The message at each position of the period: users write a few sentences, the assistant more. */
function messagePeriod(): { kind: EventKind; message: Message }[] {
  const next = random(42);
  const users = messagePool(next, 40, 1, 4);
  const assistants = messagePool(next, 40, 2, 12);
  return Array.from({ length: TEXT_PERIOD }, (_, position) => {
    // Sizes and the period are even: user messages at even seqs, so every transcript ends on one.
    const user = position % 2 === 0;
    const pool = user ? users : assistants;
    return { kind: user ? EventKind.USER_MESSAGE : EventKind.ASSISTANT_MESSAGE, message: pool[Math.floor(next() * pool.length)] };
  });
}

interface Range {
  from: number;
  to: number;
  relevance: string;
}

interface Predecessor {
  size: number;
  sessionId: string;
  /** Event ids by seq - 1. */
  eventIds: string[];
  ranges: Range[];
}

/** A root session of `size` alternating messages, the last a user message, written in one transaction. */
async function writePredecessor(pool: Pool, accountId: string, size: number, period: ReturnType<typeof messagePeriod>): Promise<Predecessor> {
  const sessionId = randomUUID();
  // A message every half minute, the last one just now.
  const startedAt = Date.now() - size * 30_000;
  const rows = chainMessages(
    sessionId,
    Array.from({ length: size }, (_, index) => {
      const { kind, message } = period[(index + 1) % TEXT_PERIOD];
      return { kind, text: message.text, tokenCount: message.tokenCount, createdAt: new Date(startedAt + index * 30_000) };
    }),
  );
  const last = rows[rows.length - 1];
  if (last.kind !== EventKind.USER_MESSAGE) throw new Error(`The last of ${size} events is not a user message`);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO sessions (id, account_id, kind, status, title, created_at, event_count, token_count, last_event_hash, origin_id)
       VALUES ($1, $2, 'ROOT', 'ACTIVE', $3, $4, $5, $6, $7, $1)`,
      [sessionId, accountId, `Receipts migration, ${size} events`, rows[0].createdAt, size, last.tokenTotal, last.hash],
    );
    await insertMessages(client, accountId, rows);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
  const middle = size / 2;
  return {
    size,
    sessionId,
    eventIds: rows.map((row) => row.id),
    ranges: [
      { ...START_RANGE, relevance: 'How the chat framed the problem at the start.' },
      { from: middle - MIDDLE_EVENTS + 1, to: middle, relevance: 'The copy and verification design agreed midway.' },
      { from: size - TAIL_EVENTS + 1, to: size, relevance: 'The latest exchange, ending with the request to answer.' },
    ],
  };
}

function previewInput(predecessor: Predecessor) {
  return {
    sessionId: predecessor.sessionId,
    idempotencyKey: `compile-bench-${predecessor.size}`,
    reason: 'CONTEXT_PRESSURE',
    title: 'Receipts migration runbook',
    tokenBudget: TOKEN_BUDGET,
    handoff: HANDOFF,
    sources: predecessor.ranges.map((range) => ({
      kind: SourceKind.SESSION_EVENTS,
      relevance: range.relevance,
      sessionId: predecessor.sessionId,
      fromEventId: predecessor.eventIds[range.from - 1],
      toEventId: predecessor.eventIds[range.to - 1],
    })),
  };
}

interface Compiled {
  tokenCost: number;
  items: { status: string; fromEventId: string | null }[];
}

/** The start range is cited to show what does not fit is never read: it must come back omitted. */
function checkStartOmitted(predecessor: Predecessor, compiled: Compiled, side: string): void {
  const startId = predecessor.eventIds[START_RANGE.from - 1];
  const start = compiled.items.find((item) => item.fromEventId === startId);
  if (start?.status !== ManifestItemStatus.OMITTED) {
    throw new Error(`${side} at ${predecessor.size} events: the start range is ${start?.status ?? 'missing'}, expected OMITTED`);
  }
}

async function previewOverHttp(client: GraphQLClient, predecessor: Predecessor): Promise<Compiled> {
  const { previewProjection } = await client.data<{
    previewProjection: Compiled & { __typename: string; code?: string; message?: string };
  }>(PREVIEW, { input: previewInput(predecessor) });
  if (previewProjection.__typename !== 'ProjectionPreview') {
    throw new Error(`previewProjection failed: ${previewProjection.code} ${previewProjection.message}`);
  }
  return previewProjection;
}

const EVENT_COLUMNS = 'id, session_id, seq, kind, text, data, token_count, token_total, hash';

function projected(row: Record<string, unknown>): ProjectedEvent {
  return {
    id: row.id as string,
    sessionId: row.session_id as string,
    seq: row.seq as number,
    kind: row.kind as string,
    text: row.text as string | null,
    data: row.data,
    tokenCount: row.token_count as number,
    tokenTotal: row.token_total as number,
    hash: row.hash as string,
  };
}

/**
 * Reads ranges as the server's reader does, in one query, counting the events it returns: a read
 * bounded by `withinTokens` starts where its end's running total, less that, is reached (the
 * event before the part that fits), found from the stored totals without reading the rest.
 */
function countingReader(sql: ClientBase) {
  const reader = {
    eventsRead: 0,
    async eventsInRanges(reads: EventRangeRead[]): Promise<ProjectedEvent[][]> {
      const { rows } = await sql.query(
        `SELECT wanted.position, ${EVENT_COLUMNS.split(', ').map((column) => `event.${column}`).join(', ')}
         FROM unnest($1::uuid[], $2::int[], $3::int[], $4::int[]) WITH ORDINALITY AS wanted (session_id, from_seq, to_seq, within_tokens, position)
         CROSS JOIN LATERAL (
           SELECT coalesce((
             SELECT before.seq FROM events before
             WHERE before.session_id = wanted.session_id AND before.seq BETWEEN wanted.from_seq AND wanted.to_seq
               AND before.token_total - before.token_count
                   < (SELECT last.token_total FROM events last WHERE last.session_id = wanted.session_id AND last.seq = wanted.to_seq) - wanted.within_tokens
             ORDER BY before.seq DESC LIMIT 1), wanted.from_seq) AS seq
         ) start
         CROSS JOIN LATERAL (
           SELECT * FROM events WHERE events.session_id = wanted.session_id AND events.seq BETWEEN start.seq AND wanted.to_seq OFFSET 0
         ) event
         ORDER BY wanted.position, event.seq`,
        [reads.map((read) => read.sessionId), reads.map((read) => read.fromSeq), reads.map((read) => read.toSeq), reads.map((read) => read.withinTokens ?? null)],
      );
      reader.eventsRead += rows.length;
      return reads.map((_, index) => rows.filter((row) => Number(row.position) === index + 1).map(projected));
    },
  };
  return reader;
}

/**
 * The compiler's input as the server builds it for this request. The boundary events are looked
 * up here, untimed: the server resolves them before compiling too.
 */
async function compileRequest(sql: ClientBase, accountId: string, accountName: string, predecessor: Predecessor): Promise<ProjectionRequest> {
  const seqs = predecessor.ranges.flatMap((range) => [range.from, range.to]);
  const { rows } = await sql.query(`SELECT ${EVENT_COLUMNS} FROM events WHERE session_id = $1 AND seq = ANY($2::int[])`, [
    predecessor.sessionId,
    seqs,
  ]);
  const bySeq = new Map(rows.map((row) => [row.seq as number, projected(row)]));
  const event = (seq: number) => {
    const found = bySeq.get(seq);
    if (!found) throw new Error(`No event ${seq} at ${predecessor.size} events`);
    return found;
  };
  const initiating = event(predecessor.size);
  const manifestId = randomUUID();
  const input = previewInput(predecessor);
  return {
    tokenBudget: TOKEN_BUDGET,
    identity: {
      accountId,
      accountName,
      grants: ['read and write every session, event, resource and memory entry of this account'],
      tools: [...AGENT_TOOLS],
    },
    transferred: { plan: PlanTransfer.OMIT, planRevision: null, pendingRunIds: [], pinnedTools: [], pinnedResources: [] },
    carriedPlan: null,
    lineageBlock: lineageBlock({
      originId: predecessor.sessionId,
      predecessorId: predecessor.sessionId,
      edgeId: randomUUID(),
      initiatingEventId: initiating.id,
      manifestId,
    }),
    manifestId,
    initiatingEvent: initiating,
    recentBefore: { sessionId: predecessor.sessionId, seq: initiating.seq },
    handoff: normalizeHandoff(input.handoff),
    // A root predecessor: no cited range opens a successor, so none leads back to a handoff's manifest.
    pins: [],
    sources: predecessor.ranges.map((range, index) => ({
      type: 'EVENTS' as const,
      input: input.sources[index],
      first: event(range.from),
      last: event(range.to),
      handoffManifestId: null,
    })),
  };
}

async function compileAlone(sql: ClientBase, request: ProjectionRequest): Promise<Compiled & { ms: number; eventsRead: number }> {
  const reader = countingReader(sql);
  const started = performance.now();
  const outcome = await compileProjection(request, reader);
  const ms = performance.now() - started;
  if (!outcome.ok) throw new Error(`compileProjection failed: ${outcome.error.code} ${outcome.error.message}`);
  return { ms, eventsRead: reader.eventsRead, tokenCost: outcome.value.tokenCost, items: outcome.value.items };
}

/** What one size costs apart from time, the same in every run. */
interface CompileSize {
  size: number;
  /** Events the compiler read (compile alone). */
  eventsRead: number;
  /** Of the server's preview. */
  tokenCost: number;
  included: number;
  items: number;
  /** Database queries the server sends per previewProjection request, authentication included. */
  queries: number;
}

interface CompileRound {
  round: number;
  /** Medians in milliseconds, by size in COMPILE_SIZES order. */
  previewMs: number[];
  compileMs: number[];
}

export interface CompileResult {
  sizes: CompileSize[];
  rounds: CompileRound[];
  writeSeconds: number;
}

/** Checks the start range is left out and records what each size costs apart from time. */
async function describeSizes(app: RunningApp, client: GraphQLClient, sql: ClientBase, predecessors: Predecessor[], requests: ProjectionRequest[]) {
  const sizes: CompileSize[] = [];
  for (const [index, predecessor] of predecessors.entries()) {
    // Counted on a second request, as the other sections count after a warm-up: the first is not typical.
    await previewOverHttp(client, predecessor);
    const queriesBefore = app.database.queryCount();
    const preview = await previewOverHttp(client, predecessor);
    const queries = app.database.queryCount() - queriesBefore;
    const alone = await compileAlone(sql, requests[index]);
    checkStartOmitted(predecessor, preview, 'previewProjection');
    checkStartOmitted(predecessor, alone, 'compileProjection');
    const included = preview.items.filter((item) => item.status === ManifestItemStatus.INCLUDED).length;
    sizes.push({ size: predecessor.size, eventsRead: alone.eventsRead, tokenCost: preview.tokenCost, included, items: preview.items.length, queries });
  }
  return sizes;
}

/** Median ms of RUNS previews and compiles per size, after WARMUP untimed ones, the sizes alternating. */
async function timeRound(round: number, client: GraphQLClient, sql: ClientBase, predecessors: Predecessor[], requests: ProjectionRequest[]): Promise<CompileRound> {
  const previewSamples = predecessors.map((): number[] => []);
  const compileSamples = predecessors.map((): number[] => []);
  for (let run = 0; run < WARMUP + RUNS; run++) {
    for (const [index, predecessor] of predecessors.entries()) {
      const started = performance.now();
      await previewOverHttp(client, predecessor);
      const previewMs = performance.now() - started;
      const alone = await compileAlone(sql, requests[index]);
      if (run >= WARMUP) {
        previewSamples[index].push(previewMs);
        compileSamples[index].push(alone.ms);
      }
    }
  }
  return { round, previewMs: previewSamples.map(median), compileMs: compileSamples.map(median) };
}

/**
 * Writes one predecessor per size, then times previewProjection over HTTP and compileProjection
 * alone in `rounds` rounds.
 */
export async function benchCompile(
  app: RunningApp,
  client: GraphQLClient,
  pool: Pool,
  account: { id: string; name: string },
  rounds: number,
  log: (message: string) => void,
): Promise<CompileResult> {
  log(`Writing predecessors of ${COMPILE_SIZES.join(', ')} events...`);
  const writeStarted = performance.now();
  const period = messagePeriod();
  const predecessors: Predecessor[] = [];
  for (const size of COMPILE_SIZES) predecessors.push(await writePredecessor(pool, account.id, size, period));
  const writeSeconds = (performance.now() - writeStarted) / 1000;
  // Fresh planner statistics, as autovacuum would give a database that grew this way.
  await pool.query('ANALYZE sessions, events');
  // Compiling alone reads through a connection of its own, as the server's reader reads through its pool.
  const sql = await pool.connect();
  try {
    const requests: ProjectionRequest[] = [];
    for (const predecessor of predecessors) requests.push(await compileRequest(sql, account.id, account.name, predecessor));
    const sizes = await describeSizes(app, client, sql, predecessors, requests);
    const results: CompileRound[] = [];
    for (let round = 1; round <= rounds; round++) {
      log(`Round ${round}: projection compile time at ${COMPILE_SIZES.join(', ')} events...`);
      results.push(await timeRound(round, client, sql, predecessors, requests));
    }
    return { sizes, rounds: results, writeSeconds };
  } finally {
    sql.release();
  }
}

const count = (value: number) => value.toLocaleString('en-US');

export function reportCompile({ sizes, rounds, writeSeconds }: CompileResult): void {
  const events = sizes.reduce((sum, size) => sum + size.size, 0);
  console.log(
    `\nprojection compile time by history length, at a budget of ${count(TOKEN_BUDGET)} tokens` +
      `\neach request cites events ${START_RANGE.from}-${START_RANGE.to} (which cannot fit), the ${MIDDLE_EVENTS} ending at the middle and the last ${TAIL_EVENTS};` +
      ` the compiler adds the recent exchange` +
      `\npreview: previewProjection over HTTP (validation, source resolution, compiler); compile: compileProjection alone, reading through pg` +
      `\nmedian of ${RUNS} runs each, the three sizes alternating; ratio = ms / ms at ${count(COMPILE_SIZES[0])} events in the same round` +
      `\n${count(events)} events written in ${fixed(writeSeconds)} s\n`,
  );
  console.log(
    table(
      ['events', 'events read', 'items included', 'tokenCost', 'server queries'],
      sizes.map((size) => [count(size.size), String(size.eventsRead), `${size.included} of ${size.items}`, String(size.tokenCost), String(size.queries)]),
    ),
  );
  console.log();
  console.log(
    table(
      ['round', 'events', 'preview ms', 'ratio', 'compile ms', 'ratio'],
      rounds.flatMap((row) =>
        sizes.map((size, index) => [
          String(row.round),
          count(size.size),
          fixed(row.previewMs[index], 2),
          fixed(row.previewMs[index] / row.previewMs[0], 2),
          fixed(row.compileMs[index], 2),
          fixed(row.compileMs[index] / row.compileMs[0], 2),
        ]),
      ),
    ),
  );

  console.log(`\nratio to ${count(COMPILE_SIZES[0])} events over ${rounds.length} rounds, min / median / max\n`);
  const last = sizes.length - 1;
  const verdict = (ratios: Spread) => `<= ${COMPILE_TARGET}: ${ratios.median <= COMPILE_TARGET ? 'met' : 'NOT MET'}`;
  console.log(
    table(
      ['events', 'preview', 'target', 'compile alone', 'target'],
      sizes.slice(1).map((size, offset) => {
        const index = offset + 1;
        const preview = spread(rounds.map((row) => row.previewMs[index] / row.previewMs[0]));
        const alone = spread(rounds.map((row) => row.compileMs[index] / row.compileMs[0]));
        return [count(size.size), ratioCell(preview), index === last ? verdict(preview) : '', ratioCell(alone), index === last ? verdict(alone) : ''];
      }),
    ),
  );
}
