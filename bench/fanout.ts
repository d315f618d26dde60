import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Client as WsGraphQLClient, createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { FanoutModel, startFanoutModel } from './fanout-model';
import { GraphQLClient } from './graphql';
import { log, runOnNewDatabase, startFlags } from './harness';
import { monotonicNow } from './model-process';
import { fixed, ratioCell, spread, table } from './stats';

/**
 * One streamed answer watched by 1, 100 and 1,000 WebSocket subscribers: the server, in a process
 * of its own, streams a 2,000-token answer from a model speaking OpenAI's SSE format (in a
 * process of its own, bench/fanout-model.ts) to `runOutput` subscribers speaking graphql-ws's
 * protocol. Latency runs from the model sending a token to a subscriber holding it. Beside it, the raw limit: a bare `ws` server
 * in a process of its own reading the same stream and broadcasting it, batched as the server
 * batches (every 40 ms, or 1,000 characters), to as many plain sockets.
 */
const SUBSCRIBERS = (process.env.FANOUT_SUBSCRIBERS ?? '1,100,1000').split(',').map(Number);
const TOKENS = 2_000;
/** Between the model's tokens: about 250 tokens a second, a fast model. */
const TOKEN_PAUSE_MS = 4;
const BATCH_MS = 40;
const BATCH_CHARS = 1_000;
const P99_TARGET = 2;
const P50_TARGET = 2;
const IDLE_TARGET_KB = 50;
const ROUNDS = Number(process.env.FANOUT_ROUNDS ?? 3);

/** The machine's monotonic clock, which the model's process reads alike. */
const now = monotonicNow;

/**
 * When each subscriber received which tokens: a batch holds consecutive tokens, so each message is
 * kept as its first and last token and the time it arrived, in typed arrays. Parsing every token
 * of every message into plain arrays (two million entries a round at 1,000 subscribers) made this
 * process pause for its own garbage collection while it timed arrivals, on both sides alike.
 */
function latencyRecorder() {
  let size = 0;
  let first = new Int32Array(1 << 16);
  let last = new Int32Array(1 << 16);
  let receivedAt = new Float64Array(1 << 16);
  const grow = () => {
    const larger = <T extends Int32Array | Float64Array>(array: T): T => {
      const next = new (array.constructor as new (length: number) => T)(array.length * 2);
      next.set(array);
      return next;
    };
    [first, last, receivedAt] = [larger(first), larger(last), larger(receivedAt)];
  };
  return {
    received(text: string, at: number) {
      const start = text.indexOf('w');
      if (start < 0) return;
      if (size === first.length) grow();
      first[size] = Number.parseInt(text.slice(start + 1), 10);
      last[size] = Number.parseInt(text.slice(text.lastIndexOf('w') + 1), 10);
      receivedAt[size] = at;
      size += 1;
    },
    latencies(sentAt: number[]): number[] {
      const samples: number[] = [];
      for (let index = 0; index < size; index++) {
        for (let token = first[index]; token <= last[index]; token++) samples.push(receivedAt[index] - sentAt[token]);
      }
      return samples;
    },
  };
}

interface Latencies {
  count: number;
  p50: number;
  p99: number;
  /** This process's CPU while the answer streamed: what receiving cost, alike on both sides or the comparison is off. */
  clientCpuMs: number;
}

const cpuMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;

/** A round's latencies summed up at once: a round at 1,000 subscribers has two million of them. */
function latencies({ samples, clientCpuMs }: { samples: number[]; clientCpuMs: number }): Latencies {
  const sorted = Float64Array.from(samples).sort();
  const at = (p: number) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
  return { count: sorted.length, p50: at(50), p99: at(99), clientCpuMs };
}

function rssKb(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
}

/** The first error line each spawned process logged after it started, to report with the figures. */
const firstErrors = new Map<ChildProcess, string>();

function spawnAndWait(args: string[], env: Record<string, string>, pattern: RegExp): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  const child = spawn(process.execPath, args, { cwd: path.resolve(__dirname, '..', 'server'), env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let started = false;
  return new Promise((resolve, reject) => {
    const look = (chunk: Buffer) => {
      if (started) {
        const error = String(chunk).split('\n').find((line) => /"level":(50|60)/.test(line));
        if (error && !firstErrors.has(child)) firstErrors.set(child, error);
        return;
      }
      output += chunk;
      const match = pattern.exec(output);
      if (match) {
        started = true;
        resolve({ child, match });
      }
    };
    child.stdout!.on('data', look);
    child.stderr!.on('data', look);
    child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${output}`)));
  });
}

/** Waits until `done` says so, or fails after a minute: a socket the server closed never connects. */
async function waitUntil(done: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`Gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** An idle subscriber: graphql-ws's client on a socket of its own, connected at once, telling when it is. */
function subscriberClient(url: string, apiKey: string, connected: () => void): WsGraphQLClient {
  return createClient({
    url: `${url.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${apiKey}` },
    lazy: false,
    retryAttempts: 0,
    // A socket that fails is counted by the wait for connections, not printed a thousand times.
    onNonLazyError: () => undefined,
    on: { connected },
  });
}

/**
 * A `runOutput` subscriber speaking graphql-ws's protocol (graphql-transport-ws) over a bare `ws`
 * socket, its messages read with one `JSON.parse` as the raw broadcast's subscribers read theirs.
 * The thousand subscribers share this one process: with graphql-ws's client in it, a round cost
 * this process about a third more CPU than the raw side's, and its pauses (one of 180 ms) were
 * counted as the server's latency. Subscribers on machines of their own pay that cost in parallel.
 */
function protocolSubscriber(
  url: string,
  apiKey: string,
  runId: string,
  on: { acknowledged(): void; text(text: string): void; failed(reason: string): void; ended(): void },
): WebSocket {
  const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws');
  let finished = false;
  const end = () => {
    if (!finished) (finished = true), on.ended();
  };
  socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${apiKey}` } })));
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as { type: string; payload?: { data?: { runOutput: { text: string } }; errors?: unknown } };
    if (message.type === 'next') {
      if (message.payload!.data) on.text(message.payload!.data.runOutput.text);
      else on.failed(JSON.stringify(message.payload!.errors));
    } else if (message.type === 'connection_ack') {
      on.acknowledged();
      socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: 'subscription ($r: ID!) { runOutput(runId: $r) { offset text } }', variables: { r: runId } } }));
    } else if (message.type === 'error') {
      on.failed(JSON.stringify(message.payload));
      end();
    } else if (message.type === 'complete') end();
  });
  socket.on('close', (code, reason) => {
    if (!finished) on.failed(`closed with ${code} ${String(reason)}`), end();
  });
  return socket;
}

async function serverRound(url: string, apiKey: string, model: FanoutModel, subscribers: number) {
  const http = new GraphQLClient(url, apiKey);
  const { createSession } = await http.data<{ createSession: { id: string } }>('mutation { createSession(input: { title: "Fan-out" }) { id } }');
  const { postMessage } = await http.data<{ postMessage: { run: { id: string } } }>(
    'mutation ($s: ID!) { postMessage(input: { sessionId: $s, text: "Write a long answer." }) { ... on PostMessageSuccess { run { id } } } }',
    { s: createSession.id },
  );
  const recorder = latencyRecorder();
  const failures: string[] = [];
  let completed = 0;
  let subscribed = 0;
  let sockets: WebSocket[] = [];
  const allDone = new Promise<void>((resolve) => {
    sockets = Array.from({ length: subscribers }, () =>
      protocolSubscriber(url, apiKey, postMessage.run.id, {
        acknowledged: () => (subscribed += 1),
        text: (text) => recorder.received(text, now()),
        failed: (reason) => failures.push(reason),
        ended: () => {
          completed += 1;
          if (completed === subscribers) resolve();
        },
      }),
    );
  });
  await waitUntil(() => subscribed === subscribers, `${subscribers} subscribers to connect`);
  // Subscriptions start once their sockets are acknowledged; give the last ones a moment to be in place.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const cpu = process.cpuUsage();
  model.go();
  await allDone;
  const clientCpuMs = cpuMs(process.cpuUsage(cpu));
  await Promise.all(sockets.map((socket) => new Promise((resolve) => (socket.once('close', resolve), socket.close(1000)))));
  http.close();
  const sentAt = await model.reset();
  if (failures.length) log(`  ${failures.length} subscriber error(s), the first: ${failures[0]}`);
  return { samples: recorder.latencies(sentAt), clientCpuMs };
}

async function rawRound(port: number, model: FanoutModel, subscribers: number) {
  const recorder = latencyRecorder();
  const sockets = await Promise.all(
    Array.from({ length: subscribers }, () => new Promise<WebSocket>((resolve) => {
      const socket = new WebSocket(`ws://127.0.0.1:${port}`);
      socket.on('open', () => resolve(socket));
    })),
  );
  let ended = 0;
  const done = new Promise<void>((resolve) =>
    sockets.forEach((socket) =>
      socket.on('message', (data) => {
        const message = JSON.parse(String(data)) as { text?: string; end?: true };
        if (message.end) {
          ended += 1;
          if (ended === subscribers) resolve();
        } else recorder.received(message.text!, now());
      }),
    ),
  );
  await fetch(`http://127.0.0.1:${port}/start`, { method: 'POST' });
  const cpu = process.cpuUsage();
  model.go();
  await done;
  const clientCpuMs = cpuMs(process.cpuUsage(cpu));
  sockets.forEach((socket) => socket.close());
  return { samples: recorder.latencies(await model.reset()), clientCpuMs };
}

/**
 * Memory per idle subscriber: the server's resident memory (KB) with none, 1,000 and 2,000
 * subscriptions waiting. The target is judged on the average over all 2,000, which also carries
 * what a server pays once (code first run, the heap's first growth). The second thousand's share
 * alone, printed beside it, is the cost of one more subscriber, but resident memory moves by more
 * than a thousand subscribers' worth when the heap grows or shrinks: it has been seen below zero.
 */
async function idleSubscriberMemory(url: string, apiKey: string, pid: number) {
  const http = new GraphQLClient(url, apiKey);
  const { createSession } = await http.data<{ createSession: { id: string } }>('mutation { createSession(input: { title: "Idle" }) { id } }');
  http.close();
  const idle: WsGraphQLClient[] = [];
  let connected = 0;
  const idleThousand = async () => {
    for (let index = 0; index < 1_000; index++) {
      const client = subscriberClient(url, apiKey, () => (connected += 1));
      client.subscribe({ query: 'subscription ($s: ID!) { sessionEvents(sessionId: $s) { seq } }', variables: { s: createSession.id } }, { next: () => undefined, error: () => undefined, complete: () => undefined });
      idle.push(client);
    }
    await waitUntil(() => connected === idle.length, `${idle.length} idle subscribers to connect`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    return rssKb(pid);
  };
  const none = rssKb(pid);
  const first = await idleThousand();
  const second = await idleThousand();
  await Promise.all(idle.map((client) => client.dispose()));
  return { none, first, second, perIdleKb: (second - none) / 2_000, secondThousandKb: (second - first) / 1_000 };
}

/**
 * The built server, as `npm start` runs it (`npm run bench:fanout` builds it first). Run from source
 * through @swc-node/register its process holds some 40 MB more heap (the compiled modules and
 * their source maps), which every full collection marks, so its pauses were longer than a
 * deployment's.
 */
const SERVER_ENTRY = path.resolve(__dirname, '..', 'server', 'dist', 'index.js');

runOnNewDatabase(async (databaseUrl) => {
  if (!existsSync(SERVER_ENTRY)) throw new Error(`No built server at ${SERVER_ENTRY}: run \`npm run build -w server\` first (npm run bench:fanout does).`);
  const model = await startFanoutModel(TOKENS, TOKEN_PAUSE_MS);
  const apiKey = `sck_fanout_${randomBytes(16).toString('hex')}`;
  const server = await spawnAndWait(
    // FANOUT_SERVER_FLAGS: more node flags for the server's process, e.g. --cpu-prof to see where its time goes.
    [...startFlags(), ...(process.env.FANOUT_SERVER_FLAGS ?? '').split(' ').filter(Boolean), SERVER_ENTRY],
    {
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: '0',
      DATABASE_URL: databaseUrl,
      BOOTSTRAP_API_KEY: apiKey,
      MODEL_PROVIDER: 'openai',
      OPENAI_BASE_URL: model.url,
      OPENAI_API_KEY: 'bench',
      MODEL: 'bench',
      CONTINUATION_RATE_PER_MINUTE: '1000000',
      // Every subscriber uses the one key: a per-key rate would measure the limit, not the fan-out.
      RATE_LIMIT_KEY_REQUESTS: '0',
    },
    /API: (http:\/\/127\.0\.0\.1:\d+)\/graphql/,
  );
  const url = server.match[1];
  const raw = await spawnAndWait(
    ['-r', '@swc-node/register', '../bench/raw-broadcast.ts'],
    { SWC_NODE_PROJECT: '../bench/tsconfig.json', MODEL_URL: model.url, BATCH_MS: String(BATCH_MS), BATCH_CHARS: String(BATCH_CHARS) },
    /listening on (\d+)/,
  );
  const rawPort = Number(raw.match[1]);
  // Also when this process ends otherwise than through `finally`: no server is left behind.
  process.once('exit', () => [server.child, raw.child].forEach((child) => child.kill('SIGTERM')));
  try {
    const memory = await idleSubscriberMemory(url, apiKey, server.child.pid!);
    const rows: { round: number; subscribers: number; server: Latencies; raw: Latencies }[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      for (const subscribers of SUBSCRIBERS) {
        log(`Round ${round}: ${subscribers} subscriber(s), the server then the raw broadcast...`);
        const server = latencies(await serverRound(url, apiKey, model, subscribers));
        const raw = latencies(await rawRound(rawPort, model, subscribers));
        rows.push({ round, subscribers, server, raw });
      }
    }
    console.log(
      `\nOne answer of ${TOKENS} tokens (${fixed(1000 / TOKEN_PAUSE_MS, 0)} a second at most) streamed to runOutput subscribers,` +
        ` beside a bare ws broadcast of the same stream batched alike (${BATCH_MS} ms or ${BATCH_CHARS} characters); latency from the model's token to each subscriber\n`,
    );
    console.log(
      table(
        ['round', 'subscribers', 'tokens seen', 'server p50 ms', 'server p99 ms', 'raw p50 ms', 'raw p99 ms', 'p50 ratio', 'p99 ratio', 'receiving CPU ms (server; raw)'],
        rows.map((row) => [
          String(row.round),
          String(row.subscribers),
          String(row.server.count),
          fixed(row.server.p50),
          fixed(row.server.p99),
          fixed(row.raw.p50),
          fixed(row.raw.p99),
          fixed(row.server.p50 / row.raw.p50, 2),
          fixed(row.server.p99 / row.raw.p99, 2),
          `${fixed(row.server.clientCpuMs, 0)}; ${fixed(row.raw.clientCpuMs, 0)}`,
        ]),
      ),
    );
    const atThousand = rows.filter((row) => row.subscribers === 1_000);
    const p50 = spread(atThousand.map((row) => row.server.p50 / row.raw.p50));
    const p99 = spread(atThousand.map((row) => row.server.p99 / row.raw.p99));
    console.log(
      `\nat 1,000 subscribers, server / raw (min / median / max over ${ROUNDS} rounds): p50 ${ratioCell(p50)}, p99 ${ratioCell(p99)}; ` +
        `target p50 <= ${P50_TARGET} and p99 <= ${P99_TARGET} in every round: ${p50.max <= P50_TARGET && p99.max <= P99_TARGET ? 'met' : 'NOT MET'}` +
        `\nserver memory per idle subscriber: ${fixed(memory.perIdleKb)} KB over 2,000, ${fixed(memory.secondThousandKb)} KB the second thousand's share (resident ${fixed(memory.none / 1024)} MB with none, ${fixed(memory.first / 1024)} MB with 1,000, ${fixed(memory.second / 1024)} MB with 2,000); ` +
        `target <= ${IDLE_TARGET_KB} KB: ${memory.perIdleKb <= IDLE_TARGET_KB ? 'met' : 'NOT MET'}`,
    );
    if (firstErrors.has(server.child)) console.log(`\nthe server logged errors; the first: ${firstErrors.get(server.child)}`);
  } finally {
    server.child.kill('SIGTERM');
    raw.child.kill('SIGTERM');
    model.close();
    await Promise.all([server.child, raw.child].map((child) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)))));
  }
});
