import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An account's retention period; an account without a row keeps everything. */
@Entity({ name: 'retention_policies' })
export class RetentionPolicyEntity {
  @PrimaryColumn({ name: 'account_id', type: 'uuid' })
  accountId: string;

  @Column({ name: 'retention_days', type: 'integer' })
  retentionDays: number;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
