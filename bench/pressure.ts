/**
 * The runtime's continuation at the context threshold against a plain turn, in the same run: from
 * the user message to the first token of the answering model call (the successor's, when the
 * runtime continued: its draft call, the continuation and the successor's turn), with the model's
 * own time subtracted, which the stand-in model records per request. What remains is the server's
 * share. Target: the continuation's share at most 2x a plain turn's. Printed beside it: the time
 * outside the model's requests, which also leaves out the stand-in's own work in this process.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:pressure
 *
 * PRESSURE_SESSIONS (12): conversations, each driven past its threshold once.
 */
import { GraphQLClient } from './graphql';
import { log, runOnNewDatabase, startBenchServer } from './harness';
import { fixed, spread, table } from './stats';
import { startModelStandIn, StandInRequest } from '../server/test/helpers/model-stand-in';

const SESSIONS = Number(process.env.PRESSURE_SESSIONS ?? 12);
const WINDOW = 8_000;
const THRESHOLD = 0.7;
const FIRST_TOKEN_MS = 25;
/** Nominal: timers stretch it, and the stand-in records the time actually waited. */
const PER_TOKEN_MS = 1;

const POST = `mutation ($s: ID!, $t: String!) { postMessage(input: { sessionId: $s, text: $t }) { ... on PostMessageSuccess { run { id } } ... on OperationError { code message } } }`;
const SESSION = `query ($id: ID!) { session(id: $id) { status runs { status } continuations { successor { id runs { status } } } } }`;

interface SessionState {
  status: string;
  runs: { status: string }[];
  continuations: { successor: { id: string; runs: { status: string }[] } }[];
}

const settled = (runs: { status: string }[]) => runs.length > 0 && runs.every((run) => run.status !== 'QUEUED' && run.status !== 'RUNNING');

/** A message of about 300 tokens, each different. */
function message(session: number, index: number): string {
  return Array.from(
    { length: 10 },
    (_, line) => `Session ${session}, note ${index}.${line}: the survey of berth ${line + index} found ${session * 31 + line} metres of quay wall to repair before spring.`,
  ).join(' ');
}

async function untilSettled(client: GraphQLClient, sessionId: string): Promise<SessionState> {
  let seen: SessionState | null = null;
  for (;;) {
    const { session } = await client.data<{ session: SessionState }>(SESSION, { id: sessionId });
    const successor = session.continuations[session.continuations.length - 1]?.successor;
    // A query's fields are read one after another: a continuation committing between them can show
    // the run settled before the session continued, so a settled state counts once it reads the same twice.
    if (settled(session.runs) && (!successor || settled(successor.runs))) {
      if (seen && seen.status === session.status && seen.continuations.length === session.continuations.length) return session;
      seen = session;
      continue;
    }
    seen = null;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The server's share of the time to the answering call's first token: the elapsed time less the model's. */
function serverShare(postedAt: number, requests: StandInRequest[]): number {
  const answering = requests[requests.length - 1];
  const drafts = requests.slice(0, -1).reduce((sum, request) => sum + request.modelTimeMs, 0);
  return answering.firstTokenAt! - postedAt - drafts - answering.modelFirstTokenMs;
}

/**
 * The time outside the model's requests: from the message to the first request's arrival, and from
 * each request's last byte to the next one's arrival. The stand-in runs in this process, so the
 * share above also holds its own work (counting each prompt's tokens, writing a draft's chunks)
 * and the server's parsing of a draft's chunks, which a real model's generation would hide.
 */
function outsideRequests(postedAt: number, requests: StandInRequest[]): number {
  return requests.reduce((sum, request, index) => sum + request.arrivedAt - (index === 0 ? postedAt : requests[index - 1].finishedAt!), 0);
}

runOnNewDatabase(async (databaseUrl) => {
  const model = await startModelStandIn({ contextTokens: WINDOW, replyTokens: 40, timing: { firstTokenMs: FIRST_TOKEN_MS, perTokenMs: PER_TOKEN_MS } });
  const app = await startBenchServer(databaseUrl, {
    poolSize: 10,
    agent: {
      provider: 'openai',
      openai: { baseURL: model.baseURL, apiKey: 'sk-bench', model: 'gpt-4o', timeoutMs: 30_000 },
      windowTokens: WINDOW,
      continuationThreshold: THRESHOLD,
      concurrency: 2,
      pollMs: 1_000,
    },
  });
  const admin = new GraphQLClient(app.url, app.bootstrapKey.apiKey);
  const { createAccount } = await admin.data<{ createAccount: { apiKey: string } }>('mutation { createAccount(name: "pressure") { apiKey } }');
  const client = new GraphQLClient(app.url, createAccount.apiKey);
  const plain: number[] = [];
  const continued: number[] = [];
  const plainOutside: number[] = [];
  const continuedOutside: number[] = [];
  let failed = 0;
  try {
    for (let index = 0; index < SESSIONS; index += 1) {
      const { createSession } = await client.data<{ createSession: { id: string } }>('mutation ($t: String!) { createSession(input: { title: $t }) { id } }', {
        t: `Quay survey ${index}`,
      });
      for (let turn = 0; ; turn += 1) {
        const before = model.requests.length;
        const postedAt = performance.timeOrigin + performance.now();
        await client.data(POST, { s: createSession.id, t: message(index, turn) });
        const state = await untilSettled(client, createSession.id);
        failed += [...state.runs, ...state.continuations.flatMap((edge) => edge.successor.runs)].filter((run) => run.status === 'FAILED').length;
        const requests = model.requests.slice(before);
        if (state.status === 'CONTINUED') {
          continued.push(serverShare(postedAt, requests));
          continuedOutside.push(outsideRequests(postedAt, requests));
          const answering = requests[requests.length - 1];
          const draft = requests[requests.length - 2];
          log(
            `  message to draft call ${fixed(requests[0].arrivedAt - postedAt)} ms; ${requests.length - 1} draft call(s), the last ${fixed(draft.finishedAt! - draft.arrivedAt)} ms ` +
              `(model ${fixed(draft.modelTimeMs)}); draft to the successor's call ${fixed(answering.arrivedAt - draft.finishedAt!)} ms; its first token ${fixed(answering.firstTokenAt! - answering.arrivedAt)} ms (model ${fixed(answering.modelFirstTokenMs)})`,
          );
          break;
        }
        plain.push(serverShare(postedAt, requests));
        plainOutside.push(outsideRequests(postedAt, requests));
      }
      log(`session ${index + 1}/${SESSIONS}: continued after ${plain.length} plain turns so far`);
    }
  } finally {
    client.close();
    admin.close();
    await app.close();
    await model.close();
  }
  const plainSpread = spread(plain);
  const continuedSpread = spread(continued);
  const ms = (value: number) => fixed(value, 1);
  console.log(`\nServer's share of the time from a user message to the answering model call's first token (ms; model time subtracted)\n`);
  console.log(
    table(
      ['turn', 'samples', 'min', 'median', 'max'],
      [
        ['plain turn', String(plain.length), ms(plainSpread.min), ms(plainSpread.median), ms(plainSpread.max)],
        ['continued at the threshold', String(continued.length), ms(continuedSpread.min), ms(continuedSpread.median), ms(continuedSpread.max)],
      ],
    ),
  );
  console.log(
    `\nContinuation / plain turn, each against the plain median: min ${fixed(continuedSpread.min / plainSpread.median, 2)}x, median ${fixed(continuedSpread.median / plainSpread.median, 2)}x, max ${fixed(continuedSpread.max / plainSpread.median, 2)}x (target: median at most 2x). Failed runs: ${failed}.`,
  );
  const plainOutsideSpread = spread(plainOutside);
  const continuedOutsideSpread = spread(continuedOutside);
  console.log(
    `Outside the model's requests (the stand-in's own work left out too): plain ${ms(plainOutsideSpread.min)} / ${ms(plainOutsideSpread.median)} / ${ms(plainOutsideSpread.max)} ms, ` +
      `continued ${ms(continuedOutsideSpread.min)} / ${ms(continuedOutsideSpread.median)} / ${ms(continuedOutsideSpread.max)} ms; continued / plain median: ` +
      `min ${fixed(continuedOutsideSpread.min / plainOutsideSpread.median, 2)}x, median ${fixed(continuedOutsideSpread.median / plainOutsideSpread.median, 2)}x, max ${fixed(continuedOutsideSpread.max / plainOutsideSpread.median, 2)}x.`,
  );
  if (model.requests.some((request) => request.overContext)) console.log('Some requests did not fit the window.');
});
