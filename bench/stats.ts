import { postgresCpu, postgresCpuSince, processCpuMs } from './cpu';

/** Nearest-rank percentile (0 < p <= 100) of unsorted samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) throw new Error('No samples');
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

export const median = (samples: readonly number[]) => percentile(samples, 50);

export interface Spread {
  min: number;
  median: number;
  max: number;
}

export function spread(samples: readonly number[]): Spread {
  return { min: Math.min(...samples), median: median(samples), max: Math.max(...samples) };
}

export const ratioCell = ({ min, median, max }: Spread) => `${fixed(min, 2)} / ${fixed(median, 2)} / ${fixed(max, 2)}`;

export interface Throughput {
  opsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU time of this process (server and load generator) per operation. */
  processCpuMs: number;
  /** CPU time of PostgreSQL's processes per operation; null when it does not run on this machine. */
  postgresCpuMs: number | null;
}

/**
 * Runs `count` operations with `concurrency` workers pulling from one counter, timing each; the
 * operation gets its index so each can use its own prepared input.
 */
export async function measure(concurrency: number, count: number, operation: (index: number) => Promise<unknown>): Promise<Throughput> {
  const latencies: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      const started = performance.now();
      await operation(index);
      latencies.push(performance.now() - started);
    }
  };
  // Read before the clock starts: listing /proc takes a few milliseconds.
  const [processBefore, postgresBefore] = [processCpuMs(), postgresCpu()];
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  const postgresUsed = postgresCpuSince(postgresBefore);
  return {
    opsPerSecond: count / seconds,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    processCpuMs: (processCpuMs() - processBefore) / count,
    postgresCpuMs: postgresUsed === null ? null : postgresUsed / count,
  };
}

/** Throughput of operations split into batches measured one after another, as one figure. */
export function merged(batches: Throughput[], counts: number[]): Throughput {
  const total = counts.reduce((a, b) => a + b, 0);
  const seconds = batches.reduce((sum, batch, index) => sum + counts[index] / batch.opsPerSecond, 0);
  const weighted = (pick: (batch: Throughput) => number) => batches.reduce((sum, batch, index) => sum + pick(batch) * counts[index], 0) / total;
  const postgres = batches.every((batch) => batch.postgresCpuMs !== null) ? weighted((batch) => batch.postgresCpuMs!) : null;
  return {
    opsPerSecond: total / seconds,
    p50Ms: weighted((batch) => batch.p50Ms),
    p99Ms: Math.max(...batches.map((batch) => batch.p99Ms)),
    processCpuMs: weighted((batch) => batch.processCpuMs),
    postgresCpuMs: postgres,
  };
}

/**
 * `count` operations on the server and as many on the raw side, in `parts` turns each, the side
 * that goes first alternating (server then raw, raw then server, ...): what PostgreSQL does after a
 * burst of writes (flushing the WAL, a checkpoint, autovacuum) and the machine's own load then fall
 * on both sides alike, not on whichever always ran second. Each side measures `size` operations
 * from `start`; its turns make one figure.
 */
export async function sideBySide(
  parts: number,
  count: number,
  server: (start: number, size: number) => Promise<Throughput>,
  raw: (start: number, size: number) => Promise<Throughput>,
): Promise<{ server: Throughput; raw: Throughput }> {
  const turns = { server: [] as Throughput[], raw: [] as Throughput[] };
  const counts: number[] = [];
  for (let part = 0; part < parts; part++) {
    const start = Math.floor((count * part) / parts);
    const size = Math.floor((count * (part + 1)) / parts) - start;
    const onServer = async () => turns.server.push(await server(start, size));
    const onRaw = async () => turns.raw.push(await raw(start, size));
    if (part % 2 === 0) await onServer().then(onRaw);
    else await onRaw().then(onServer);
    counts.push(size);
  }
  return { server: merged(turns.server, counts), raw: merged(turns.raw, counts) };
}

/** A plain-text table: right-aligned columns, a rule under the header. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => row[column].length)));
  const line = (cells: string[]) => cells.map((cell, column) => cell.padStart(widths[column])).join('  ');
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}

export const fixed = (value: number, digits = 1) => value.toFixed(digits);

/** CPU per operation: this process's (server or `pg` driver, and the load generator) + PostgreSQL's. */
export const cpuCell = ({ processCpuMs, postgresCpuMs }: Throughput) =>
  postgresCpuMs === null ? fixed(processCpuMs, 2) : `${fixed(processCpuMs, 2)} + ${fixed(postgresCpuMs, 2)}`;

/** Hands out prepared items (predecessors, turns) in order: every operation, on either side, gets one of its own. */
export function dispenser<T>(prepared: T[]) {
  let next = 0;
  return (count: number) => {
    if (next + count > prepared.length) throw new Error(`Only ${prepared.length} prepared: not enough for every operation`);
    next += count;
    return prepared.slice(next - count, next);
  };
}

/** A side-by-side row's cells: each side's throughput, p50, p99 and CPU, then their ratio. */
export function sideBySideCells({ server, raw }: { server: Throughput; raw: Throughput }): string[] {
  const side = (throughput: Throughput) => [fixed(throughput.opsPerSecond), fixed(throughput.p50Ms), fixed(throughput.p99Ms), cpuCell(throughput)];
  return [...side(server), ...side(raw), fixed(server.opsPerSecond / raw.opsPerSecond, 2)];
}
