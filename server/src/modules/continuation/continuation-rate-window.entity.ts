import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An account's continuations in the current one-minute window and the one before (see `rate-window.ts`). */
@Entity({ name: 'continuation_rate_windows' })
export class ContinuationRateWindowEntity {
  @PrimaryColumn({ name: 'account_id', type: 'uuid' })
  accountId: string;

  @Column({ name: 'window_start', type: 'timestamptz' })
  windowStart: Date;

  @Column({ name: 'current_count', type: 'integer' })
  currentCount: number;

  @Column({ name: 'previous_count', type: 'integer' })
  previousCount: number;
}
