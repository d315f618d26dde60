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

/** A plain-text table: right-aligned columns, a rule under the header. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => row[column].length)));
  const line = (cells: string[]) => cells.map((cell, column) => cell.padStart(widths[column])).join('  ');
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}

export const fixed = (value: number, digits = 1) => value.toFixed(digits);
