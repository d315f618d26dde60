import { DataSource } from 'typeorm';
import { logger } from '../../platform/observability/logger';
import { metrics } from '../../platform/observability/metrics';
import { attemptDelivery } from './delivery-attempt';
import { ClaimedDelivery, claimDueDeliveries, recordDelivered, recordFailure } from './webhook.repository';
import { WebhookSettings, retryDelayMs } from './webhooks';

/** A claim outlives its attempt's timeout by this much before another process may take the delivery. */
const CLAIM_MARGIN_MS = 5_000;
/** Wake-ups closer together than this share one look at the queue: every reported change wakes the worker. */
const WAKE_COALESCE_MS = 20;
/** Successes answered within this long of each other are recorded in one statement. */
const RECORD_BATCH_MS = 5;

/**
 * The delivery worker of one process: claims due deliveries (SKIP LOCKED, so processes share the
 * queue without taking the same row), POSTs each, and records the outcome: DELIVERED on a 2xx,
 * otherwise a retry after the schedule's next wait, or FAILED once the schedule is spent. A
 * process that dies mid-attempt leaves its claim to lapse, and the delivery is attempted again:
 * at least once, never lost.
 */
export class WebhookDeliveryWorker {
  private readonly attempts = new Set<Promise<void>>();
  private stopped = true;
  private looking: Promise<void> | null = null;
  private lookAgain = false;
  private timer: NodeJS.Timeout | null = null;
  private wakeTimer: NodeJS.Timeout | null = null;
  private answered: { delivery: ClaimedDelivery; responseStatus: number; recorded: () => void }[] = [];
  private recordTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly settings: WebhookSettings,
  ) {}

  start(): void {
    if (this.settings.concurrency === 0) return;
    this.stopped = false;
    this.look();
  }

  /** Stops claiming, and waits for the attempts under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of [this.timer, this.wakeTimer]) if (timer) clearTimeout(timer);
    await this.looking;
    await Promise.all([...this.attempts]);
  }

  /** A delivery may be due now: look soon, without waiting for the poll. */
  wake(): void {
    if (this.stopped || this.wakeTimer) return;
    this.wakeTimer = setTimeout(() => {
      this.wakeTimer = null;
      this.look();
    }, WAKE_COALESCE_MS);
    this.wakeTimer.unref();
  }

  private look(): void {
    if (this.stopped) return;
    if (this.looking) {
      this.lookAgain = true;
      return;
    }
    this.looking = this.claimWhileRoom().finally(() => {
      this.looking = null;
      if (this.lookAgain) {
        this.lookAgain = false;
        this.look();
      } else this.schedulePoll();
    });
  }

  private schedulePoll(): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.look();
    }, this.settings.pollMs);
    this.timer.unref();
  }

  /** Claims due deliveries while this process has room for more attempts. */
  private async claimWhileRoom(): Promise<void> {
    try {
      while (!this.stopped && this.attempts.size < this.settings.concurrency) {
        const room = this.settings.concurrency - this.attempts.size;
        const claimed = await claimDueDeliveries(this.dataSource.manager, room, this.settings.timeoutMs + CLAIM_MARGIN_MS);
        metrics.webhookQueueAge.set(claimed[0]?.waitedSeconds ?? 0);
        for (const delivery of claimed) {
          const attempt: Promise<void> = this.attempt(delivery).finally(() => {
            this.attempts.delete(attempt);
            // Claims go in batches: once half the attempts are done.
            if (this.attempts.size <= this.settings.concurrency / 2) this.look();
          });
          this.attempts.add(attempt);
        }
        if (claimed.length < room) return;
      }
    } catch (error) {
      if (!this.stopped) logger.error({ err: error }, 'Claiming webhook deliveries failed');
    }
  }

  private async attempt(delivery: ClaimedDelivery): Promise<void> {
    const end = metrics.webhookAttempts.startTimer();
    const result = await attemptDelivery(delivery, this.settings);
    try {
      if (result.ok) {
        end({ outcome: 'delivered' });
        metrics.webhookDeliveries.inc({ outcome: 'delivered' });
        await this.recordDelivered(delivery, result.status);
        return;
      }
      const retryInMs = retryDelayMs(this.settings.retryScheduleMs, delivery.roundAttempts + 1);
      end({ outcome: result.status === null ? 'network_error' : 'error_status' });
      if (retryInMs === null) metrics.webhookDeliveries.inc({ outcome: 'failed' });
      const failure = { responseStatus: result.status, error: result.error, retryInMs };
      const disabled = await this.dataSource.transaction((manager) => recordFailure(manager, delivery, failure, this.settings.disableAfterMs));
      if (disabled) {
        metrics.webhookEndpointsDisabled.inc();
        logger.warn({ endpointId: delivery.endpointId, url: delivery.url, lastError: result.error }, 'A webhook endpoint failed for too long and was disabled');
      }
    } catch (error) {
      // The claim lapses and the delivery is attempted again.
      logger.error({ err: error, deliveryId: delivery.id }, 'Recording a webhook attempt failed');
    }
  }

  /** Records a success with the others answered about now, in one statement; resolves once it is written. */
  private recordDelivered(delivery: ClaimedDelivery, responseStatus: number): Promise<void> {
    return new Promise((recorded) => {
      this.answered.push({ delivery, responseStatus, recorded });
      this.recordTimer ??= setTimeout(() => {
        this.recordTimer = null;
        const batch = this.answered.splice(0);
        recordDelivered(this.dataSource.manager, batch)
          // The claims lapse and the deliveries are attempted again.
          .catch((error: unknown) => logger.error({ err: error, deliveryIds: batch.map((entry) => entry.delivery.id) }, 'Recording webhook deliveries failed'))
          .finally(() => batch.forEach((entry) => entry.recorded()));
      }, RECORD_BATCH_MS);
    });
  }
}
