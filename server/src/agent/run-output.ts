import { logger } from '../platform/observability/logger';
import { storableText } from '../shared/text';

/** How a run's answer is passed on while it is produced. */
export interface OutputBatching {
  /** How long deltas gather before they are written and published together. */
  batchMs: number;
  /** A batch this large (UTF-16 code units) goes out without waiting for `batchMs`. */
  maxBatchChars: number;
}

export const DEFAULT_OUTPUT_BATCHING: OutputBatching = { batchMs: 40, maxBatchChars: 1_000 };

/**
 * A run's answer as the model produces it. Deltas gather into batches; each batch is handed to
 * `write` (which stores it, then publishes it) in order, one at a time, with its offset in the
 * answer. While a write is under way, what is produced meanwhile waits and then goes in one
 * write, whatever its size: when the database is slow, subscribers get fewer, larger batches
 * instead of a queue of round trips that each delays the next. A batch never goes before it is
 * due, though: a quick write does not cut the next batch short, which would only send more,
 * smaller batches to every subscriber.
 */
export class RunOutputStream {
  private produced = '';
  private sent = 0;
  private timer: NodeJS.Timeout | null = null;
  /** The write under way, if any. */
  private writing: Promise<void> | null = null;
  /** A batch came due (its time passed, or it reached its size) during the write under way: it goes as that write ends. */
  private due = false;
  private finishing = false;

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
    this.finishing = true;
    this.flush();
    while (this.writing) await this.writing;
    return this.text;
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.writing) {
      this.due = true;
      return;
    }
    this.due = false;
    if (this.sent === this.produced.length) return;
    let end = this.produced.length;
    // A batch never ends between the two halves of a surrogate pair, but the answer may.
    if (!this.finishing && isHighSurrogate(this.produced.charCodeAt(end - 1))) end -= 1;
    if (end === this.sent) return;
    const offset = this.sent;
    // Mended as the recorded answer will be, so that the pieces still join to it.
    const piece = storableText(this.produced.slice(offset, end));
    this.sent = end;
    this.writing = this.write(offset, piece)
      .catch((error) => logger.error({ err: error }, "Passing on a run's output failed"))
      .finally(() => {
        this.writing = null;
        // A batch not yet due keeps gathering until its timer: a quick write does not cut it short.
        if (this.due || this.finishing) this.flush();
      });
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
