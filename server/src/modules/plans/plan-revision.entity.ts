import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { PlanStep } from './plans';

/** One revision of a session's plan; the newest is the session's plan. Never changed once written. */
@Entity({ name: 'plan_revisions' })
export class PlanRevisionEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId: string;

  @Column({ name: 'session_id', type: 'uuid' })
  sessionId: string;

  @Column({ type: 'integer' })
  revision: number;

  @Column({ type: 'boolean' })
  closed: boolean;

  @Column({ type: 'jsonb' })
  steps: PlanStep[];

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  /** When an erasure removed its steps. */
  @Column({ name: 'erased_at', type: 'timestamptz', nullable: true })
  erasedAt: Date | null;
}
