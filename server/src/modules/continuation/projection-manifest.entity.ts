import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Actor, ContinuationReason, Handoff, SourceInput, TransferredState } from './continuations';
import type { CompiledSection, ManifestItem } from './projection/model';
import type { ManifestProposal } from './proposals';

/** The exact sources and state a successor started from. Stored once; a trigger refuses changes. */
@Entity({ name: 'projection_manifests' })
export class ProjectionManifestEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId: string;

  @Column({ name: 'edge_id', type: 'uuid' })
  edgeId: string;

  @Column({ name: 'predecessor_id', type: 'uuid' })
  predecessorId: string;

  @Column({ name: 'successor_id', type: 'uuid' })
  successorId: string;

  @Column({ name: 'origin_id', type: 'uuid' })
  originId: string;

  @Column({ name: 'initiating_event_id', type: 'uuid' })
  initiatingEventId: string;

  @Column({ type: 'text' })
  actor: Actor;

  @Column({ type: 'text' })
  reason: ContinuationReason;

  @Column({ type: 'jsonb' })
  handoff: Handoff;

  /** The sources exactly as the caller cited them. */
  @Column({ type: 'jsonb' })
  sources: SourceInput[];

  @Column({ type: 'jsonb' })
  items: ManifestItem[];

  /** For a continuation a person approved from an agent's proposal: the agent's draft, beside the handoff as edited. */
  @Column({ type: 'jsonb', nullable: true })
  proposal: ManifestProposal | null;

  @Column({ name: 'transferred_state', type: 'jsonb' })
  transferredState: TransferredState;

  @Column({ name: 'lineage_block', type: 'text' })
  lineageBlock: string;

  @Column({ type: 'jsonb' })
  context: CompiledSection[];

  @Column({ name: 'compiler_version', type: 'text' })
  compilerVersion: string;

  @Column({ name: 'model_version', type: 'text' })
  modelVersion: string;

  @Column({ name: 'token_budget', type: 'integer' })
  tokenBudget: number;

  @Column({ name: 'token_cost', type: 'integer' })
  tokenCost: number;

  @Column({ type: 'text' })
  hash: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  /** When an erasure removed the texts it carried (handoff, compiled context, relevance notes); its hash stays as recorded. */
  @Column({ name: 'erased_at', type: 'timestamptz', nullable: true })
  erasedAt: Date | null;
}
