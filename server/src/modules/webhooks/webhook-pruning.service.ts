import { DataSource } from 'typeorm';
import { logger } from '../../platform/observability/logger';
import { metrics } from '../../platform/observability/metrics';
import { RepeatingPass } from '../../shared/repeating-pass';
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
  private readonly passes = new RepeatingPass(
    async () => (await this.pruneOnce()) >= PRUNE_BATCH,
    PRUNE_EVERY_MS,
    (error) => logger.error({ err: error }, 'Pruning webhook deliveries failed'),
  );

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
    this.passes.start();
  }

  stop(): Promise<void> {
    return this.passes.stop();
  }
}
