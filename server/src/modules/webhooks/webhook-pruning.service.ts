import { DataSource } from 'typeorm';
import { logger } from '../../platform/observability/logger';
import { metrics } from '../../platform/observability/metrics';
import { pruneEndedDeliveries } from './webhook.repository';
import { WebhookSettings, pruneEndedBefore } from './webhooks';

/** Deliveries one statement deletes at most: a short transaction, whose locks no writer waits long on. */
export const PRUNE_BATCH = 1_000;
/** How often the pruning looks again once it has caught up. */
const PRUNE_EVERY_MS = 60_000;

/**
 * Keeps the delivery records bounded: every server process, delivering or not
 * (WEBHOOK_CONCURRENCY=0 too), deletes the deliveries that ended more than
 * `deliveryRetentionDays` ago, a batch at a time, as the retention sweep erases lineages. Batches
 * follow one another at once while they come back full, then once a minute.
 */
export class WebhookDeliveryPruning {
  private timer: NodeJS.Timeout | null = null;
  private pruning: Promise<unknown> | null = null;
  private stopped = true;

  constructor(
    private readonly dataSource: DataSource,
    private readonly settings: Pick<WebhookSettings, 'deliveryRetentionDays'>,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** Deletes one batch of deliveries past the retention as of the clock's now; returns how many. */
  async pruneOnce(): Promise<number> {
    const endedBefore = pruneEndedBefore(this.clock(), this.settings.deliveryRetentionDays);
    const pruned = await pruneEndedDeliveries(this.dataSource.manager, endedBefore, PRUNE_BATCH);
    metrics.webhookDeliveriesPruned.inc(pruned);
    return pruned;
  }

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.pruning;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.pruning = this.pruneOnce()
        .then((pruned) => this.schedule(pruned >= PRUNE_BATCH ? 0 : PRUNE_EVERY_MS))
        .catch((error: unknown) => {
          if (!this.stopped) logger.error({ err: error }, 'Pruning webhook deliveries failed');
          this.schedule(PRUNE_EVERY_MS);
        });
    }, delayMs);
    this.timer.unref();
  }
}
