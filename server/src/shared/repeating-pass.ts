/**
 * A bounded pass of background work (a batch of deletions, of erasures) run at once when started,
 * then every `everyMs`, and again at once while a pass reports that it filled its batch: a backlog
 * drains without waiting, and a caught-up process looks once a period. Every process may run one;
 * the pass itself must tolerate others running at the same time.
 */
export class RepeatingPass {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private stopped = true;

  constructor(
    /** One pass; resolves whether it filled its batch (more may be waiting). */
    private readonly pass: () => Promise<boolean>,
    private readonly everyMs: number,
    /** A pass that failed, while still started; the next pass comes after `everyMs`. */
    private readonly failed: (error: unknown) => void,
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** Stops scheduling, and waits for a pass under way to end. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.pass()
        .then((full) => this.schedule(full ? 0 : this.everyMs))
        .catch((error: unknown) => {
          if (!this.stopped) this.failed(error);
          this.schedule(this.everyMs);
        });
    }, delayMs);
    this.timer.unref();
  }
}
