import { Field, ID, Int, ObjectType, createUnionType } from 'type-graphql';
import { Actor, ContinuationReason, PlanTransfer, SourceKind } from '../../domain/continuations';
import { ContextSectionKind, ManifestItemOrigin, ManifestItemStatus } from '../../domain/projection';
import type { ContinuationEdgeEntity } from '../../db/entities/continuation-edge.entity';
import type { RunEntity } from '../../db/entities/run.entity';
import type { SessionEntity } from '../../db/entities/session.entity';
import { OperationError } from '../common/operation-error.type';
import { Run } from '../runs/run.type';
import { Session } from '../sessions/session.type';
import { Node } from '../nodes/node.type';

@ObjectType({ description: "Why, when and by whom a predecessor was continued in a successor.", implements: Node, simpleResolvers: true })
export class ContinuationEdge {
  @Field(() => ID)
  id: string;

  @Field(() => ContinuationReason)
  reason: ContinuationReason;

  @Field(() => Actor)
  actor: Actor;

  @Field()
  createdAt: Date;
}

@ObjectType({ description: 'The agent-written orientation for a successor: narrative, not a record.' })
export class Handoff {
  @Field()
  purpose: string;

  @Field({ description: 'What the user asked for, verbatim where possible.' })
  currentRequest: string;

  @Field(() => [String])
  establishedFacts: string[];

  @Field(() => [String])
  decisions: string[];

  @Field(() => [String])
  openQuestions: string[];

  @Field(() => [String])
  nextActions: string[];

  @Field(() => [String])
  cautions: string[];
}

@ObjectType({ description: 'One source a manifest names, and what became of it.', simpleResolvers: true })
export class ManifestItem {
  @Field(() => SourceKind)
  kind: SourceKind;

  @Field(() => ManifestItemStatus)
  status: ManifestItemStatus;

  @Field({ description: 'Why the source matters, as the caller (or the runtime) put it.' })
  relevance: string;

  @Field(() => ID, { nullable: true })
  sessionId: string | null;

  @Field(() => ID, { nullable: true })
  fromEventId: string | null;

  @Field(() => ID, { nullable: true })
  toEventId: string | null;

  @Field(() => ID, { nullable: true })
  eventId: string | null;

  @Field(() => String, { nullable: true })
  url: string | null;

  @Field(() => String, { nullable: true, description: 'Exact resource version or memory content id pinned by the manifest.' })
  version: string | null;

  @Field(() => String, { nullable: true })
  blockId: string | null;

  @Field(() => String, { nullable: true })
  path: string | null;

  @Field(() => String, { nullable: true })
  cid: string | null;

  @Field(() => Int, {
    description:
      'Tokens the item adds: for included events, those of its events no earlier section of the context shows; for a source left out, what a recall of it reads; for resource or memory content, its whole text.',
  })
  tokenCount: number;

  @Field(() => ID, {
    nullable: true,
    description:
      "When the cited events open a successor, the manifest whose handoff its banner introduced: follow it to that handoff's own exact sources.",
  })
  handoffManifestId: string | null;

  /** The manifest holding this item and its position there; absent for a preview. */
  manifestId?: string;
  index?: number;

  /** As stored; `ManifestItemResolver` answers the fields, also for manifests stored before they were recorded. */
  origin?: ManifestItemOrigin;
  score?: number | null;

  @Field(() => String, {
    nullable: true,
    description:
      "Content hash of exactly what the manifest selected: an event's own hash, or for a range sha256 of the canonical JSON [first event's hash, last event's hash].",
  })
  hash: string | null;
}

@ObjectType()
export class ContextSection {
  @Field(() => ContextSectionKind)
  kind: ContextSectionKind;

  @Field()
  text: string;

  @Field(() => Int)
  tokenCount: number;
}

@ObjectType({ description: "The successor's initial model context, in the order the compiler filled it." })
export class ProjectedContext {
  @Field(() => [ContextSection])
  sections: ContextSection[];

  @Field(() => Int, { description: 'Tokens of the whole context: the sections joined by blank lines.' })
  tokenCount: number;
}

@ObjectType()
export class ResourceRef {
  @Field()
  url: string;

  @Field()
  version: string;

  @Field(() => String, { nullable: true })
  blockId: string | null;
}

@ObjectType({ description: "What a successor received of its predecessor's structured state." })
export class TransferredState {
  @Field(() => PlanTransfer)
  plan: PlanTransfer;

  @Field(() => Int, { nullable: true, description: "The predecessor plan's revision that was carried or closed." })
  planRevision: number | null;

  @Field(() => [ID], { description: 'Pending delegated runs now reporting to the successor (same ids and tool-call ids).' })
  pendingRunIds: string[];

  @Field(() => [String])
  pinnedTools: string[];

  @Field(() => [ResourceRef])
  pinnedResources: ResourceRef[];
}

@ObjectType({ description: 'The exact sources and state a successor started from. Stored once, never rewritten.', implements: Node })
export class ProjectionManifest {
  @Field(() => ID)
  id: string;

  @Field()
  createdAt: Date;

  @Field(() => ID)
  predecessorId: string;

  @Field(() => ID)
  successorId: string;

  @Field(() => ID)
  originId: string;

  @Field(() => ID)
  initiatingEventId: string;

  @Field(() => Actor)
  actor: Actor;

  @Field(() => ContinuationReason)
  reason: ContinuationReason;

  @Field(() => [ManifestItem], { description: 'The initiating message, the recent exchange and every cited source, in priority order.' })
  items: ManifestItem[];

  @Field(() => TransferredState)
  transferredState: TransferredState;

  @Field({ description: "Runtime-generated lineage block placed in the successor's context." })
  lineageBlock: string;

  @Field()
  compilerVersion: string;

  @Field({ description: 'Tokenizer / model the token counts were computed for.' })
  modelVersion: string;

  @Field(() => Int)
  tokenBudget: number;

  @Field(() => Int, { description: 'Tokens of the compiled initial context; never above tokenBudget.' })
  tokenCost: number;

  @Field({ description: "sha256 over the manifest's canonical content (see the README)." })
  hash: string;
}

@ObjectType()
export class LineageNode {
  @Field(() => Session)
  session: SessionEntity;

  @Field(() => Int, { description: 'Continuation edges between the origin and this session.' })
  depth: number;

  @Field(() => ContinuationEdge, { nullable: true, description: 'The edge into this session; null for the origin.' })
  edge: ContinuationEdgeEntity | null;
}

@ObjectType()
export class ContinueSessionSuccess {
  @Field(() => ContinuationEdge)
  edge: ContinuationEdgeEntity;

  @Field(() => Session)
  successor: SessionEntity;

  @Field(() => Run, { description: "The successor's initial run, started automatically." })
  run: RunEntity;

  @Field({ description: 'True when this call replayed an earlier one with the same idempotency key.' })
  replayed: boolean;

  static of(value: Omit<ContinueSessionSuccess, never>): ContinueSessionSuccess {
    return Object.assign(new ContinueSessionSuccess(), value);
  }
}

export const ContinueSessionResult = createUnionType({
  name: 'ContinueSessionResult',
  types: () => [ContinueSessionSuccess, OperationError] as const,
});

@ObjectType({ description: 'A continuation, as announced to subscribers once it has committed.' })
export class SessionContinuedEvent {
  @Field(() => ContinuationEdge)
  edge: ContinuationEdgeEntity;

  @Field(() => Session)
  predecessor: SessionEntity;

  @Field(() => Session)
  successor: SessionEntity;
}

@ObjectType({ description: 'What continueSession would give the successor, computed the same way; nothing was written.' })
export class ProjectionPreview {
  @Field(() => ProjectedContext)
  context: ProjectedContext;

  @Field(() => [ManifestItem])
  items: ManifestItem[];

  @Field(() => Int)
  tokenBudget: number;

  @Field(() => Int)
  tokenCost: number;

  static of(value: ProjectionPreview): ProjectionPreview {
    return Object.assign(new ProjectionPreview(), value);
  }
}

export const ProjectionPreviewResult = createUnionType({
  name: 'ProjectionPreviewResult',
  types: () => [ProjectionPreview, OperationError] as const,
});
