import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { RunKind, RunStatus } from './runs';

/** One unit of agent work: a turn answering a user message, or delegated work in a child session. */
@Entity({ name: 'runs' })
export class RunEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId: string;

  /** The session the run reports to; a transferred delegated run moves to the successor. */
  @Column({ name: 'session_id', type: 'uuid' })
  sessionId: string;

  @Column({ type: 'text' })
  kind: RunKind;

  @Column({ type: 'text' })
  status: RunStatus;

  @Column({ name: 'child_session_id', type: 'uuid', nullable: true })
  childSessionId: string | null;

  @Column({ name: 'tool_call_id', type: 'text', nullable: true })
  toolCallId: string | null;

  @Column({ type: 'text', nullable: true })
  error: string | null;

  /** The user message a turn answers; for delegated work, null (the task is the child's first message). */
  @Column({ name: 'trigger_event_id', type: 'uuid', nullable: true })
  triggerEventId: string | null;

  /**
   * The answer as the model produces it: appended by the worker batch by batch while RUNNING
   * (before each batch is published), the whole answer once settled; null before any output.
   */
  @Column({ type: 'text', nullable: true })
  output: string | null;

  /** How many times a worker has claimed the run; a lease is valid only for its own attempt. */
  @Column({ type: 'integer', default: 0 })
  attempt: number;

  /** The worker holding the run while it is RUNNING, until `leaseExpiresAt`. */
  @Column({ name: 'lease_owner', type: 'text', nullable: true })
  leaseOwner: string | null;

  @Column({ name: 'lease_expires_at', type: 'timestamptz', nullable: true })
  leaseExpiresAt: Date | null;

  @Column({ name: 'started_at', type: 'timestamptz', nullable: true })
  startedAt: Date | null;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
