import './production';
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import MiniSearch from 'minisearch';
import { eng as ENGLISH_STOP_WORDS } from 'stopword';
import { countTokens } from '../server/src/shared/tokens';
import { Conversation, Question, QuestionKind, generateConversations } from './conversations';
import { GraphQLClient } from './graphql';
import { log, runOnNewDatabase, startBenchServer } from './harness';
import { postOverHttp } from './post-message';
import { fixed, spread, table } from './stats';

/**
 * Recall on long conversations between people, beside a textbook baseline run on the same turns.
 * Each conversation is posted as one session through the API ("Speaker: text" per message); each
 * question is asked as `searchEvents(query, scope: SESSION)` and as an assisted
 * `previewProjection` (purpose = current request = the question) at three budgets. Beside it,
 * Okapi BM25 (minisearch, Porter stems, English stop words) ranks the same turns; its best turns
 * are packed into the room the projection had, and so are the conversation's last turns (tail
 * truncation). Generated conversations by default (`RECALL_SEEDS`, `RECALL_CONVERSATIONS`); the
 * published LoCoMo file when `RECALL_CORPUS` names it.
 */
const BUDGETS = [2_000, 4_000, 8_000];
const SEEDS = (process.env.RECALL_SEEDS ?? '1,2,3').split(',').map(Number);
const CONVERSATIONS_PER_SEED = Number(process.env.RECALL_CONVERSATIONS ?? 3);
const CORPUS_PATH = process.env.RECALL_CORPUS;
/** Points above the baseline the server's hit@5 and hit@10 must reach, and the projection at 4,000 tokens. */
const OVER_BM25_POINTS = 0.05;
const OVER_TAIL = 3;

const SEARCH = `query ($query: String!, $sessionId: ID!) {
  searchEvents(query: $query, sessionId: $sessionId, scope: SESSION, first: 10) { edges { node { event { id } } } }
}`;

const PREVIEW = `query ($input: ContinueSessionInput!) { previewProjection(input: $input) {
  __typename
  ... on ProjectionPreview { context { sections { kind text tokenCount } } }
  ... on OperationError { code message }
} }`;

/** Sections the compiler always writes before it fills the rest of the budget. */
const FIXED_SECTIONS = new Set(['SYSTEM', 'IDENTITY', 'STATE', 'LINEAGE', 'INITIATING_MESSAGE', 'HANDOFF']);

/** A corpus measured as one unit: its conversations share an account, as one person's sessions do. */
interface Corpus {
  label: string;
  conversations: Conversation[];
}

// ---------------------------------------------------------------------------------- LoCoMo's format

interface LocomoTurn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}

interface LocomoSample {
  sample_id?: string;
  conversation?: Record<string, unknown>;
  qa: { question: string; evidence?: string[]; category: number }[];
  [key: string]: unknown;
}

/** LoCoMo's categories, as its authors number them; 5 (adversarial: the answer is not in the conversation) is left out. */
const LOCOMO_KINDS: Record<number, string> = { 1: 'multi-hop', 2: 'temporal', 3: 'open-domain', 4: 'single-hop' };

/** LoCoMo's date format: "1:56 pm on 8 May, 2023". */
function locomoDate(text: unknown): Date {
  const match = /(\d+):(\d+)\s*(am|pm)\s+on\s+(\d+)\s+(\w+),?\s+(\d{4})/i.exec(String(text));
  if (!match) return new Date(0);
  const [, hour, minute, half, day, month, year] = match;
  const hours = (Number(hour) % 12) + (half.toLowerCase() === 'pm' ? 12 : 0);
  return new Date(`${day} ${month} ${year} ${String(hours).padStart(2, '0')}:${minute} UTC`);
}

/**
 * The published file (an array of samples, each with `conversation` and `qa`) or one sample whose
 * sessions sit at its top level. A turn that shares a photo keeps the photo's caption, as a reader
 * of the conversation sees it; evidence naming no turn of the conversation is dropped.
 */
function readLocomo(path: string): Corpus {
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as LocomoSample | LocomoSample[];
  const samples = Array.isArray(parsed) ? parsed : [parsed];
  const conversations = samples.map((sample, index): Conversation => {
    const body = (sample.conversation ?? sample) as Record<string, unknown>;
    const numbers = Object.keys(body)
      .map((key) => /^session_(\d+)$/.exec(key))
      .filter((match): match is RegExpExecArray => match !== null && Array.isArray(body[match[0]]))
      .map((match) => Number(match[1]))
      .sort((a, b) => a - b);
    const sessions = numbers.map((number) => ({
      date: locomoDate(body[`session_${number}_date_time`]),
      turns: (body[`session_${number}`] as LocomoTurn[]).map((turn) => ({
        id: turn.dia_id,
        speaker: turn.speaker,
        text: turn.blip_caption ? `${turn.text} [shares ${turn.blip_caption}]` : turn.text,
      })),
    }));
    const known = new Set(sessions.flatMap((session) => session.turns.map((turn) => turn.id)));
    const questions = sample.qa.flatMap((qa): Question[] => {
      const kind = LOCOMO_KINDS[qa.category];
      const evidence = (qa.evidence ?? []).flatMap((reference) => reference.split(/[;,\s]+/)).filter((id) => known.has(id));
      return kind && evidence.length ? [{ text: qa.question, kind: kind as QuestionKind, evidence: [...new Set(evidence)] }] : [];
    });
    const speakers = [String(body.speaker_a ?? ''), String(body.speaker_b ?? '')].filter(Boolean);
    return { name: sample.sample_id ?? `sample ${index + 1}`, speakers, sessions, questions };
  });
  return { label: `LoCoMo (${path.split('/').pop()})`, conversations };
}

// ------------------------------------------------------------------------------------- the baseline

/** Okapi BM25 as a library ships it: minisearch's defaults, Porter stems, English stop words. */
async function bm25Index(turns: { id: string; text: string }[]): Promise<MiniSearch<{ id: string; text: string }>> {
  // The stemmer is an ES module only.
  const { stemmer } = await import('stemmer');
  const stopWords = new Set(ENGLISH_STOP_WORDS);
  const index = new MiniSearch<{ id: string; text: string }>({
    fields: ['text'],
    processTerm: (term) => (stopWords.has(term) ? null : stemmer(term)),
  });
  index.addAll(turns);
  return index;
}

// ------------------------------------------------------------------------------------ measurements

interface PostedTurn {
  turnId: string;
  eventId: string;
  /** What the turn costs in a context, as the compiler renders an event: its line and a line break. */
  contextTokens: number;
}

interface QuestionResult {
  kind: string;
  server: { hits: number[]; recall10: number };
  bm25: { hits: number[]; recall10: number };
  /** Share of the evidence carried, per budget. */
  carried: Record<'projection' | 'bm25' | 'tail', Record<number, number>>;
  /** Tokens the compiler had after its fixed sections, per budget. */
  room: Record<number, number>;
}

/** The rank (0-based) of the first evidence turn among `ranked`, or -1. */
const firstHit = (ranked: string[], evidence: string[]) => ranked.findIndex((id) => evidence.includes(id));
const share = (ids: Iterable<string>, evidence: string[]) => {
  const held = new Set(ids);
  return evidence.filter((id) => held.has(id)).length / evidence.length;
};

/** Turns taken in order while they fit `room` tokens: skipping one that does not fit, as a packer does. */
function packed(turns: PostedTurn[], room: number): string[] {
  const kept: string[] = [];
  let used = 0;
  for (const turn of turns) {
    if (used + turn.contextTokens > room) continue;
    kept.push(turn.turnId);
    used += turn.contextTokens;
  }
  return kept;
}

/** The conversation's last turns that fit `room`: what a plain context window keeps. */
function tail(turns: PostedTurn[], room: number): string[] {
  const kept: string[] = [];
  let used = 0;
  for (let index = turns.length - 1; index >= 0 && used + turns[index].contextTokens <= room; index--) {
    kept.push(turns[index].turnId);
    used += turns[index].contextTokens;
  }
  return kept;
}

async function measureConversation(client: GraphQLClient, conversation: Conversation): Promise<QuestionResult[]> {
  const { createSession } = await client.data<{ createSession: { id: string } }>(
    'mutation ($title: String!) { createSession(input: { title: $title }) { id } }',
    { title: conversation.name },
  );
  const sessionId = createSession.id;
  const turns = conversation.sessions.flatMap((session) => session.turns);
  log(`  ${conversation.name}: posting ${turns.length} turns, then ${conversation.questions.length} questions...`);
  const posted: PostedTurn[] = [];
  for (const [index, turn] of turns.entries()) {
    const text = `${turn.speaker}: ${turn.text}`;
    const eventId = await postOverHttp(client, sessionId, text);
    posted.push({ turnId: turn.id, eventId, contextTokens: countTokens(`[event ${eventId} seq ${index + 1} USER_MESSAGE] ${text}`) + 1 });
  }
  const turnOf = new Map(posted.map((turn) => [turn.eventId, turn.turnId]));
  const byTurn = new Map(posted.map((turn) => [turn.turnId, turn]));
  const index = await bm25Index(turns.map((turn) => ({ id: turn.id, text: `${turn.speaker}: ${turn.text}` })));

  const results: QuestionResult[] = [];
  for (const question of conversation.questions) {
    const { searchEvents } = await client.data<{ searchEvents: { edges: { node: { event: { id: string } } }[] } }>(SEARCH, {
      query: question.text,
      sessionId,
    });
    const serverRanked = searchEvents.edges.map((edge) => turnOf.get(edge.node.event.id) ?? '');
    const bm25Ranked = index.search(question.text).map((result) => String(result.id));
    const result: QuestionResult = {
      kind: question.kind,
      server: {
        hits: [1, 5, 10].map((k) => Number(firstHit(serverRanked.slice(0, k), question.evidence) >= 0)),
        recall10: share(serverRanked, question.evidence),
      },
      bm25: {
        hits: [1, 5, 10].map((k) => Number(firstHit(bm25Ranked.slice(0, k), question.evidence) >= 0)),
        recall10: share(bm25Ranked.slice(0, 10), question.evidence),
      },
      carried: { projection: {}, bm25: {}, tail: {} },
      room: {},
    };
    for (const budget of BUDGETS) {
      const { previewProjection } = await client.data<{
        previewProjection: { context?: { sections: { kind: string; text: string; tokenCount: number }[] }; code?: string; message?: string };
      }>(PREVIEW, {
        input: {
          sessionId,
          idempotencyKey: randomUUID(),
          reason: 'TOPIC_CHANGE',
          title: 'Follow-up',
          tokenBudget: budget,
          assist: true,
          handoff: { purpose: question.text, currentRequest: question.text },
          sources: [],
        },
      });
      if (!previewProjection.context) throw new Error(`previewProjection failed: ${previewProjection.code} ${previewProjection.message}`);
      const { sections } = previewProjection.context;
      const shown = sections.flatMap((section) =>
        [...section.text.matchAll(/\[event ([0-9a-f-]{36}) seq/g)].map((match) => turnOf.get(match[1]) ?? ''),
      );
      result.carried.projection[budget] = share(shown, question.evidence);
      // The room the compiler had after its fixed sections: the same room for the baselines.
      const room = budget - sections.filter((section) => FIXED_SECTIONS.has(section.kind)).reduce((sum, section) => sum + section.tokenCount, 0);
      result.room[budget] = room;
      result.carried.bm25[budget] = share(
        packed(
          bm25Ranked.map((id) => byTurn.get(id)!),
          room,
        ),
        question.evidence,
      );
      result.carried.tail[budget] = share(tail(posted, room), question.evidence);
    }
    results.push(result);
  }
  return results;
}

// --------------------------------------------------------------------------------------- reporting

interface Figures {
  questions: number;
  server: { hits: number[]; recall10: number };
  bm25: { hits: number[]; recall10: number };
  carried: Record<'projection' | 'bm25' | 'tail', Record<number, number>>;
  /** Share of questions whose evidence the 4,000-token projection carried whole. */
  wholeAt4k: number;
  room: Record<number, number>;
}

function figures(results: QuestionResult[]): Figures {
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(values.length, 1);
  const carried = {} as Figures['carried'];
  for (const strategy of ['projection', 'bm25', 'tail'] as const) {
    carried[strategy] = {};
    for (const budget of BUDGETS) carried[strategy][budget] = mean(results.map((result) => result.carried[strategy][budget]));
  }
  return {
    questions: results.length,
    server: {
      hits: [0, 1, 2].map((k) => mean(results.map((result) => result.server.hits[k]))),
      recall10: mean(results.map((result) => result.server.recall10)),
    },
    bm25: {
      hits: [0, 1, 2].map((k) => mean(results.map((result) => result.bm25.hits[k]))),
      recall10: mean(results.map((result) => result.bm25.recall10)),
    },
    carried,
    wholeAt4k: mean(results.map((result) => Number(result.carried.projection[4_000] === 1))),
    room: Object.fromEntries(BUDGETS.map((budget) => [budget, mean(results.map((result) => result.room[budget]))])),
  };
}

const percent = (value: number) => `${fixed(100 * value, 1)}%`;

/** Projection over tail truncation; a tail that carried nothing counts as one question's evidence. */
const overTail = (run: Figures, budget: number) => run.carried.projection[budget] / Math.max(run.carried.tail[budget], 1 / run.questions);

function ratioCell(values: number[]): string {
  if (values.length === 1) return fixed(values[0], 2);
  const { min, median, max } = spread(values);
  return `${fixed(min, 2)} / ${fixed(median, 2)} / ${fixed(max, 2)}`;
}

/** One value, or min / median / max when there are several. */
function cell(values: number[]): string {
  if (values.length === 1) return percent(values[0]);
  const { min, median, max } = spread(values);
  return `${percent(min)} / ${percent(median)} / ${percent(max)}`;
}

function report(label: string, runs: { results: QuestionResult[] }[]) {
  const all = runs.map((run) => figures(run.results));
  const over = (of: (run: Figures) => number) => cell(all.map(of));
  const questions = all.reduce((sum, run) => sum + run.questions, 0);
  console.log(`\n${label}: ${questions} questions${all.length > 1 ? `; min / median / max over ${all.length} seeds` : ''}\n`);
  console.log(
    table(
      ['measure', 'this server', 'BM25 baseline', 'server - BM25'],
      [
        ...['hit@1', 'hit@5', 'hit@10'].map((name, k) => [
          name,
          over((run) => run.server.hits[k]),
          over((run) => run.bm25.hits[k]),
          over((run) => run.server.hits[k] - run.bm25.hits[k]),
        ]),
        [
          'evidence recall@10',
          over((run) => run.server.recall10),
          over((run) => run.bm25.recall10),
          over((run) => run.server.recall10 - run.bm25.recall10),
        ],
      ],
    ),
  );
  console.log(`\nEvidence carried (mean share of each question's evidence turns in the context)\n`);
  console.log(
    table(
      ['budget', 'projection, assist: true', 'BM25 top turns, same room', 'tail truncation, same room', 'projection - BM25', 'projection / tail'],
      BUDGETS.map((budget) => [
        String(budget),
        over((run) => run.carried.projection[budget]),
        over((run) => run.carried.bm25[budget]),
        over((run) => run.carried.tail[budget]),
        over((run) => run.carried.projection[budget] - run.carried.bm25[budget]),
        ratioCell(all.map((run) => overTail(run, budget))),
      ]),
    ),
  );
  console.log(
    `\nroom after the fixed sections (system, identity, state, lineage, initiating message, handoff), mean tokens: ` +
      BUDGETS.map((budget) => `${fixed(spread(all.map((run) => run.room[budget])).median, 0)} of ${budget}`).join(', ') +
      `; a tail share of 0 counts as one question's evidence in projection / tail`,
  );
  console.log(`\nall of a question's evidence in the 4,000-token projection: ${over((run) => run.wholeAt4k)}`);

  const kinds = [...new Set(runs.flatMap((run) => run.results.map((result) => result.kind)))].sort();
  console.log(`\nBy kind of question (all ${all.length > 1 ? 'seeds' : 'questions'} together)\n`);
  console.log(
    table(
      ['kind', 'questions', 'hit@5 server', 'hit@5 BM25', 'recall@10 server', 'recall@10 BM25', 'carried at 4,000: projection', 'BM25'],
      kinds.map((kind) => {
        const of = figures(runs.flatMap((run) => run.results.filter((result) => result.kind === kind)));
        return [
          kind,
          String(of.questions),
          percent(of.server.hits[1]),
          percent(of.bm25.hits[1]),
          percent(of.server.recall10),
          percent(of.bm25.recall10),
          percent(of.carried.projection[4_000]),
          percent(of.carried.bm25[4_000]),
        ];
      }),
    ),
  );

  const median = (of: (run: Figures) => number) => spread(all.map(of)).median;
  const verdict = (met: boolean) => (met ? 'met' : 'NOT MET');
  console.log(
    `\ntargets (medians): hit@5 >= BM25 + 5 points: ${verdict(median((run) => run.server.hits[1] - run.bm25.hits[1]) >= OVER_BM25_POINTS)}; ` +
      `hit@10 >= BM25 + 5 points: ${verdict(median((run) => run.server.hits[2] - run.bm25.hits[2]) >= OVER_BM25_POINTS)}; ` +
      `projection at 4,000 >= BM25 packing + 5 points: ${verdict(median((run) => run.carried.projection[4_000] - run.carried.bm25[4_000]) >= OVER_BM25_POINTS)}; ` +
      `>= ${OVER_TAIL} x tail: ${verdict(median((run) => overTail(run, 4_000)) >= OVER_TAIL)}`,
  );
}

runOnNewDatabase(async (databaseUrl) => {
  const app = await startBenchServer(databaseUrl, { poolSize: 4 });
  const admin = new GraphQLClient(app.url, app.bootstrapKey.apiKey);
  try {
    const corpora: Corpus[] = CORPUS_PATH
      ? [readLocomo(CORPUS_PATH)]
      : SEEDS.map((seed) => ({ label: `seed ${seed}`, conversations: generateConversations(seed, CONVERSATIONS_PER_SEED) }));
    const runs: { results: QuestionResult[] }[] = [];
    for (const corpus of corpora) {
      const turns = corpus.conversations.reduce(
        (sum, conversation) => sum + conversation.sessions.reduce((count, session) => count + session.turns.length, 0),
        0,
      );
      log(`${corpus.label}: ${corpus.conversations.length} conversations, ${turns} turns`);
      // Each corpus in an account of its own: its conversations are one person's sessions.
      const { createAccount } = await admin.data<{ createAccount: { apiKey: string } }>(
        'mutation ($name: String!) { createAccount(name: $name) { apiKey } }',
        {
          name: `recall ${corpus.label}`,
        },
      );
      const client = new GraphQLClient(app.url, createAccount.apiKey);
      const results: QuestionResult[] = [];
      for (const conversation of corpus.conversations) results.push(...(await measureConversation(client, conversation)));
      client.close();
      runs.push({ results });
    }
    const turns = corpora[0].conversations[0].sessions.reduce((count, session) => count + session.turns.length, 0);
    report(
      CORPUS_PATH
        ? corpora[0].label
        : `Generated conversations, seeds ${SEEDS.join(', ')}, ${CONVERSATIONS_PER_SEED} conversations each (the first of seed ${SEEDS[0]}: ${turns} turns)`,
      runs,
    );
  } finally {
    admin.close();
    await app.close();
  }
});
