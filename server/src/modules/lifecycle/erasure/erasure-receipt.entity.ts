import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { ErasureActor, ErasureScope } from './erasure';

/** An erasure's record: who, when, why and what (ids and counts, never content). Kept for good. */
@Entity({ name: 'erasure_receipts' })
export class ErasureReceiptEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId: string;

  @Column({ type: 'text' })
  scope: ErasureScope;

  @Column({ name: 'session_ids', type: 'uuid', array: true })
  sessionIds: string[];

  /** For a redaction: the event named. */
  @Column({ name: 'event_id', type: 'uuid', nullable: true })
  eventId: string | null;

  @Column({ name: 'event_count', type: 'integer' })
  eventCount: number;

  @Column({ name: 'attachment_count', type: 'integer' })
  attachmentCount: number;

  @Column({ type: 'text' })
  reason: string;

  @Column({ type: 'text' })
  actor: ErasureActor;

  @Column({ name: 'requested_by', type: 'text' })
  requestedBy: string;

  @Column({ name: 'erased_at', type: 'timestamptz' })
  erasedAt: Date;
}
