import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { SessionKind, SessionStatus } from '../../domain/sessions';

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

  /** Hash of the newest event: the next event chains from it. */
  @Column({ name: 'last_event_hash', type: 'text', default: '' })
  lastEventHash: string;
}
