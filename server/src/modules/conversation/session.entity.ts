import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { SessionKind, SessionStatus, ContinuationApproval } from './sessions';

@Entity({ name: 'sessions' })
export class SessionEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId: string;

  @Column({ type: 'text' })
  kind: SessionKind;

  @Column({ type: 'text' })
  status: SessionStatus;

  @Column({ type: 'text' })
  title: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  /** Running totals kept with every append, so counts never scan the transcript. */
  @Column({ name: 'event_count', type: 'integer', default: 0 })
  eventCount: number;

  @Column({ name: 'token_count', type: 'integer', default: 0 })
  tokenCount: number;

  /** First session of the lineage: the logical execution this session belongs to (itself for a root). */
  @Column({ name: 'origin_id', type: 'uuid' })
  originId: string;

  /** Continuation edges between the origin and this session. */
  @Column({ name: 'lineage_depth', type: 'integer', default: 0 })
  lineageDepth: number;

  /** Continuations in a row, up to this session, with no new user message between them. */
  @Column({ name: 'continuation_streak', type: 'integer', default: 0 })
  continuationStreak: number;

  /** For a CHILD session: the session that delegated work to it. */
  @Column({ name: 'parent_id', type: 'uuid', nullable: true })
  parentId: string | null;

  /** For a FORK: the event its history runs up to, by reference. */
  @Column({ name: 'forked_from_event_id', type: 'uuid', nullable: true })
  forkedFromEventId: string | null;

  /** Whether the agent's continuations take effect at once or wait for a person; a successor inherits it. */
  @Column({ name: 'continuation_approval', type: 'text', default: 'AUTOMATIC' })
  continuationApproval: ContinuationApproval;

  /** Hash of the newest event: the next event chains from it. */
  @Column({ name: 'last_event_hash', type: 'text', default: '' })
  lastEventHash: string;

  /** When the session's content was erased (it then takes no more writes); null for a session in use. */
  @Column({ name: 'erased_at', type: 'timestamptz', nullable: true })
  erasedAt: Date | null;
}
