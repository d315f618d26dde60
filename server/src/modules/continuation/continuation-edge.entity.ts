import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Actor, ContinuationReason } from './continuations';

/** Why, when and by whom a predecessor was continued in a successor. Never changes once written. */
@Entity({ name: 'continuation_edges' })
export class ContinuationEdgeEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId: string;

  @Column({ name: 'predecessor_id', type: 'uuid' })
  predecessorId: string;

  @Column({ name: 'predecessor_depth', type: 'integer' })
  predecessorDepth: number;

  @Column({ name: 'successor_id', type: 'uuid' })
  successorId: string;

  @Column({ name: 'successor_depth', type: 'integer' })
  successorDepth: number;

  @Column({ type: 'text' })
  reason: ContinuationReason;

  @Column({ type: 'text' })
  actor: Actor;

  @Column({ name: 'initiating_event_id', type: 'uuid' })
  initiatingEventId: string;

  @Column({ name: 'idempotency_key', type: 'text' })
  idempotencyKey: string;

  /** sha256 of the canonical request: a replayed key must carry the same request. */
  @Column({ name: 'request_fingerprint', type: 'text' })
  requestFingerprint: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
