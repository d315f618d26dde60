import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { ContinuationDraft, ProposalStatus } from './proposals';

/** An agent's continue_session call in an ASK session, waiting for a person's decision, and that decision. */
@Entity({ name: 'continuation_proposals' })
export class ContinuationProposalEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId: string;

  @Column({ name: 'session_id', type: 'uuid' })
  sessionId: string;

  /** The agent's tool call: replaying it finds this proposal (unique per account). */
  @Column({ name: 'tool_call_id', type: 'text' })
  toolCallId: string;

  @Column({ type: 'text' })
  status: ProposalStatus;

  /** The call exactly as the agent made it. */
  @Column({ type: 'jsonb' })
  draft: ContinuationDraft;

  /** The person's note when rejecting. */
  @Column({ type: 'text', nullable: true })
  note: string | null;

  /** The continuation it became, once APPROVED. */
  @Column({ name: 'edge_id', type: 'uuid', nullable: true })
  edgeId: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  /** When it was approved, rejected, superseded or marked expired. */
  @Column({ name: 'decided_at', type: 'timestamptz', nullable: true })
  decidedAt: Date | null;
}
