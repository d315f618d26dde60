import { logger } from '../platform/observability/logger';
import { storableText } from '../shared/text';

/** How a run's answer is passed on while it is produced. */
export interface OutputBatching {
  /** How long deltas gather before they are written and published together. */
  batchMs: number;
  /** A batch this large (UTF-16 code units) goes out at once; larger deltas are split. */
  maxBatchChars: number;
}

export const DEFAULT_OUTPUT_BATCHING: OutputBatching = { batchMs: 40, maxBatchChars: 1_000 };

/**
 * A run's answer as the model produces it. Deltas gather into batches; each batch is handed to
 * `write` (which stores it, then publishes it) in order, one at a time, with its offset in the answer.
 */
export class RunOutputStream {
  private produced = '';
  private sent = 0;
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly write: (offset: number, text: string) => Promise<void>,
    private readonly batching: OutputBatching = DEFAULT_OUTPUT_BATCHING,
  ) {}

  /** Everything produced so far, mended as it is passed on. */
  get text(): string {
    return storableText(this.produced);
  }

  append(delta: string): void {
    if (!delta) return;
    this.produced += delta;
    if (this.produced.length - this.sent >= this.batching.maxBatchChars) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.batching.batchMs);
  }

  /** Sends what is pending and waits until every batch is written; returns the whole answer. */
  async finish(): Promise<string> {
    this.flush();
    await this.writing;
    return this.text;
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    while (this.sent < this.produced.length) {
      let end = Math.min(this.produced.length, this.sent + this.batching.maxBatchChars);
      // A batch never ends between the two halves of a surrogate pair.
      if (end < this.produced.length && isHighSurrogate(this.produced.charCodeAt(end - 1))) end -= 1;
      const offset = this.sent;
      // Mended as the recorded answer will be, so that the pieces still join to it.
      const piece = storableText(this.produced.slice(offset, end));
      this.sent = end;
      this.writing = this.writing.then(() => this.write(offset, piece)).catch((error) => logger.error({ err: error }, "Passing on a run's output failed"));
    }
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
