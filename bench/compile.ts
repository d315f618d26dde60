import { ClientBase, Pool } from 'pg';
import { RunningApp } from '../server/src/app';
import { PlanTransfer, SourceKind, lineageBlock, normalizeHandoff } from '../server/src/modules/continuation/continuations';
import { EventRangeRead, ManifestItemStatus, ProjectedEvent, ProjectionRequest } from '../server/src/modules/continuation/projection/model';
import { compileProjection } from '../server/src/modules/continuation/projection/compile';
import { AGENT_TOOLS } from '../server/src/shared/agent-tools';
import { GraphQLClient } from './graphql';
import { fixed, median, ratioCell, spread, Spread, table } from './stats';
import { MIDDLE_EVENTS, Predecessor, START_RANGE, TAIL_EVENTS, messagePeriod, writePredecessor } from './compile-transcripts';
import { newRowId } from '../server/src/shared/ids';

const COMPILE_SIZES = [1_000, 10_000, 100_000];
const TOKEN_BUDGET = 8_000;
const RUNS = 30;
const WARMUP = 3;
const COMPILE_TARGET = 1.5;
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
  const manifestId = newRowId();
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
      edgeId: newRowId(),
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
  const verdict = (ratios: Spread) => `<= ${COMPILE_TARGET} in every round: ${ratios.max <= COMPILE_TARGET ? 'met' : 'NOT MET'}`;
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
