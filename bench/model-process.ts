import { fork } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { ModelStandInOptions, StandInRequest, startModelStandIn } from '../server/test/helpers/model-stand-in';

/**
 * The tests' stand-in model in a process of its own, so that its work (counting each prompt's
 * tokens, writing each chunk) runs beside the server's event loop, not on it, as a remote model's
 * would. Started by {@link startModelProcess}; what it recorded of each request is asked for over
 * the IPC channel, its times in the machine's monotonic clock ({@link monotonicNow}), which every
 * process reads alike.
 */

/** Milliseconds of the machine's monotonic clock (CLOCK_MONOTONIC on Linux): comparable across processes. */
export const monotonicNow = () => Number(process.hrtime.bigint()) / 1e6;

/** What the benchmark reads of a request: its times, in {@link monotonicNow}'s clock. */
export type TimedRequest = Pick<StandInRequest, 'arrivedAt' | 'firstTokenAt' | 'finishedAt' | 'modelTimeMs' | 'modelFirstTokenMs' | 'overContext' | 'outcome' | 'forced'>;

export interface ModelProcess {
  baseURL: string;
  /** The requests from the `from`-th on, in arrival order. */
  requests(from: number): Promise<TimedRequest[]>;
  close(): Promise<void>;
}

type ToChild = { type: 'requests'; from: number };
type FromChild = { type: 'listening'; baseURL: string } | { type: 'requests'; requests: TimedRequest[] };

/** Forks this file as the stand-in's process, with `options`; resolves once it listens. */
export function startModelProcess(options: ModelStandInOptions): Promise<ModelProcess> {
  // The child inherits this process's flags (`-r @swc-node/register`) and environment.
  const child = fork(__filename, [], { env: { ...process.env, MODEL_STAND_IN_OPTIONS: JSON.stringify(options) } });
  const waiting: { resolve: (requests: TimedRequest[]) => void; reject: (error: Error) => void }[] = [];
  return new Promise((resolve, reject) => {
    // Before it listens, or while the benchmark waits for its records: either way the run cannot go on.
    child.once('exit', (code) => {
      const error = new Error(`The stand-in model's process exited with ${code}`);
      reject(error);
      waiting.splice(0).forEach((request) => request.reject(error));
    });
    child.on('message', (message: FromChild) => {
      if (message.type === 'requests') waiting.shift()!.resolve(message.requests);
      else
        resolve({
          baseURL: message.baseURL,
          requests: (from) =>
            new Promise((answer, fail) => {
              waiting.push({ resolve: answer, reject: fail });
              child.send({ type: 'requests', from } satisfies ToChild);
            }),
          close: () =>
            new Promise((closed) => {
              child.removeAllListeners('exit');
              child.once('exit', () => closed());
              child.kill('SIGTERM');
            }),
        });
    });
  });
}

async function serve(options: ModelStandInOptions): Promise<void> {
  const model = await startModelStandIn(options);
  // The stand-in stamps epoch times from this process's origin; the benchmark reads them in the shared clock.
  const offset = performance.timeOrigin + performance.now() - monotonicNow();
  const shared = (at: number | null) => (at === null ? null : at - offset);
  process.on('message', (message: ToChild) => {
    const requests = model.requests.slice(message.from).map(
      (request): TimedRequest => ({
        arrivedAt: shared(request.arrivedAt)!,
        firstTokenAt: shared(request.firstTokenAt),
        finishedAt: shared(request.finishedAt),
        modelTimeMs: request.modelTimeMs,
        modelFirstTokenMs: request.modelFirstTokenMs,
        overContext: request.overContext,
        outcome: request.outcome,
        forced: request.forced,
      }),
    );
    process.send!({ type: 'requests', requests } satisfies FromChild);
  });
  process.once('SIGTERM', () => void model.close().then(() => process.exit(0)));
  // The parent going away (killed, crashed) ends this process too.
  process.once('disconnect', () => process.exit(0));
  process.send!({ type: 'listening', baseURL: model.baseURL } satisfies FromChild);
}

if (process.env.MODEL_STAND_IN_OPTIONS && process.send && require.main === module) {
  void serve(JSON.parse(process.env.MODEL_STAND_IN_OPTIONS) as ModelStandInOptions);
}
