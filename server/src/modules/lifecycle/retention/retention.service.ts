import { DataSource } from 'typeorm';
import { ErrorCode, Outcome, fail, succeed } from '../../../shared/errors';
import { RepeatingPass } from '../../../shared/repeating-pass';
import { Viewer } from '../../../shared/viewer';
import { logger } from '../../../platform/observability/logger';
import { AccountEntity } from '../../accounts/account.entity';
import { ErasureActor, ErasureScope } from '../erasure/erasure';
import type { ErasureDone, ErasureService } from '../erasure/erasure.service';
import { lockCovered } from '../erasure/erasure.service';
import { RETENTION_REQUESTER, RetentionSettings, retentionReason, validateRetentionDays } from './retention';
import { RetentionPolicyEntity } from './retention-policy.entity';
import { claimDueLineage, stillDue } from './retention.repository';

/**
 * Retention: each account may keep its lineages for a number of days after their last event; a
 * sweep in every server process erases whole lineages past that, a bounded batch at a time, each
 * lineage in its own transaction with its receipt (actor SYSTEM). Lineages are claimed as runs
 * are (SKIP LOCKED), so processes sweeping at once never take the same one.
 */
export class RetentionService {
  private readonly sweeps: RepeatingPass;

  constructor(
    private readonly dataSource: DataSource,
    private readonly erasures: ErasureService,
    private readonly settings: RetentionSettings,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.sweeps = new RepeatingPass(
      async () => (await this.sweepOnce()) >= settings.batchSize,
      settings.sweepMs,
      (error) => logger.error({ err: error }, 'Retention sweep failed'),
    );
  }

  /** Sets (or with null, removes) the viewer's account's retention period; returns the account. Fails with INVALID_INPUT. */
  async setRetentionPolicy(viewer: Viewer, retentionDays: number | null): Promise<Outcome<AccountEntity>> {
    const details = validateRetentionDays(retentionDays);
    if (details.length > 0) return fail(ErrorCode.INVALID_INPUT, details[0].message, details);
    await this.dataSource.transaction(async (manager) => {
      if (retentionDays === null) await manager.delete(RetentionPolicyEntity, { accountId: viewer.accountId });
      else await manager.upsert(RetentionPolicyEntity, { accountId: viewer.accountId, retentionDays, updatedAt: this.clock() }, ['accountId']);
    });
    return succeed(await this.dataSource.manager.findOneByOrFail(AccountEntity, { id: viewer.accountId }));
  }

  /** The account's retention period in days; null when it keeps everything. */
  async retentionDays(accountId: string): Promise<number | null> {
    const policy = await this.dataSource.manager.findOneBy(RetentionPolicyEntity, { accountId });
    return policy?.retentionDays ?? null;
  }

  /**
   * Erases up to one batch of lineages past their retention as of the clock's now; returns how
   * many it erased. The loop calls it, and so can a caller that wants to step it itself.
   */
  async sweepOnce(): Promise<number> {
    let erased = 0;
    while (erased < this.settings.batchSize && (await this.eraseOneDue())) erased += 1;
    return erased;
  }

  private async eraseOneDue(): Promise<boolean> {
    const now = this.clock();
    const done = await this.dataSource.transaction(async (manager): Promise<ErasureDone | 'NONE' | 'SKIPPED'> => {
      const due = await claimDueLineage(manager, now);
      if (!due) return 'NONE';
      const sessionIds = await lockCovered(manager, due.accountId, due.originId, true);
      // Something may have been appended between the claim and the locks.
      if (!(await stillDue(manager, due, now))) return 'SKIPPED';
      return this.erasures.eraseIn(manager, {
        accountId: due.accountId,
        scope: ErasureScope.LINEAGE,
        sessionIds,
        eventId: null,
        reason: retentionReason(due.retentionDays),
        actor: ErasureActor.SYSTEM,
        requestedBy: RETENTION_REQUESTER,
      });
    });
    if (done === 'NONE') return false;
    if (done !== 'SKIPPED') await this.erasures.announce(done);
    return true;
  }

  /** Sweeps now and then every `sweepMs`, until stopped. */
  startSweeps(): void {
    this.sweeps.start();
  }

  stopSweeps(): Promise<void> {
    return this.sweeps.stop();
  }
}
