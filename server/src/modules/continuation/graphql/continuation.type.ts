import { Field, ID, Int, ObjectType, createUnionType } from 'type-graphql';
import { Actor, ContinuationReason, PlanTransfer, SourceKind } from '../continuations';
import { ContextSectionKind, ManifestItemOrigin, ManifestItemStatus } from '../projection/model';
import type { ContinuationEdgeEntity } from '../continuation-edge.entity';
import type { RunEntity } from '../../conversation/run.entity';
import type { SessionEntity } from '../../conversation/session.entity';
import { OperationError } from '../../../shared/graphql/operation-error.type';
import { Run } from '../../conversation/graphql/run.type';
import { Session } from '../../conversation/graphql/session.type';
import { Node } from '../../../shared/graphql/node.type';

@ObjectType({ description: "Why, when and by whom a predecessor was continued in a successor.", implements: Node, simpleResolvers: true })
export class ContinuationEdge {
  @Field(() => ID, { description: 'Globally unique (a UUID); Query.node finds the edge by it.' })
  id: string;

  @Field(() => ContinuationReason, { description: 'Why the predecessor was continued.' })
  reason: ContinuationReason;

  @Field(() => Actor, { description: 'Who made the transition: AGENT, USER or SYSTEM.' })
  actor: Actor;

  @Field({ description: 'When the continuation committed.' })
  createdAt: Date;
}

@ObjectType({ description: 'The agent-written orientation for a successor: narrative, not a record.' })
export class Handoff {
  @Field({ description: 'What the successor is for: the work it carries on.' })
  purpose: string;

  @Field({ description: 'What the user asked for, verbatim where possible.' })
  currentRequest: string;

  @Field(() => [String], { description: 'What the work has settled, so the successor need not establish it again.' })
  establishedFacts: string[];

  @Field(() => [String], { description: 'Decisions taken, which the successor keeps to.' })
  decisions: string[];

  @Field(() => [String], { description: 'Questions still open.' })
  openQuestions: string[];

  @Field(() => [String], { description: 'What to do next, in order.' })
  nextActions: string[];

  @Field(() => [String], { description: 'Pitfalls and constraints to keep in mind.' })
  cautions: string[];
}

@ObjectType({ description: 'One source a manifest names, and what became of it.', simpleResolvers: true })
export class ManifestItem {
  @Field(() => SourceKind, { description: 'Which kind of source the item names.' })
  kind: SourceKind;

  @Field(() => ManifestItemStatus, { description: "What became of it: INCLUDED in the successor's context, OMITTED (recallable), or UNAVAILABLE." })
  status: ManifestItemStatus;

  @Field({ description: 'Why the source matters, as the caller (or the runtime) put it.' })
  relevance: string;

  @Field(() => ID, { nullable: true, description: 'SESSION_EVENTS and SESSION_EVENT: the session holding the events.' })
  sessionId: string | null;

  @Field(() => ID, { nullable: true, description: 'SESSION_EVENTS: the first event of the range.' })
  fromEventId: string | null;

  @Field(() => ID, { nullable: true, description: 'SESSION_EVENTS: the last event of the range, inclusive.' })
  toEventId: string | null;

  @Field(() => ID, { nullable: true, description: 'SESSION_EVENT: the event.' })
  eventId: string | null;

  @Field(() => String, { nullable: true, description: 'RESOURCE: the resource url.' })
  url: string | null;

  @Field(() => String, { nullable: true, description: 'Exact resource version or memory content id pinned by the manifest.' })
  version: string | null;

  @Field(() => String, { nullable: true, description: 'RESOURCE: the one block cited; null for the whole version.' })
  blockId: string | null;

  @Field(() => String, { nullable: true, description: 'MEMORY: the memory path.' })
  path: string | null;

  @Field(() => String, { nullable: true, description: "Content id of what was pinned: the memory entry's, or the resource version's; null when it was unavailable." })
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

@ObjectType({ description: 'One part of a projected context, of one kind.' })
export class ContextSection {
  @Field(() => ContextSectionKind, { description: 'Which part of the context this is.' })
  kind: ContextSectionKind;

  @Field({ description: "The section's text, exactly as the successor's model reads it." })
  text: string;

  @Field(() => Int, { description: "Tokens of the text under the server's tokenizer (o200k_base)." })
  tokenCount: number;
}

@ObjectType({ description: "The successor's initial model context, in the order the compiler filled it." })
export class ProjectedContext {
  @Field(() => [ContextSection], { description: 'The sections, in the order the compiler filled them.' })
  sections: ContextSection[];

  @Field(() => Int, { description: 'Tokens of the whole context: the sections joined by blank lines.' })
  tokenCount: number;
}

@ObjectType({ description: 'A resource version pinned for a session, or one block of it.' })
export class ResourceRef {
  @Field({ description: 'The resource url.' })
  url: string;

  @Field({ description: 'The exact version pinned.' })
  version: string;

  @Field(() => String, { nullable: true, description: 'The one block pinned; null for the whole version.' })
  blockId: string | null;
}

@ObjectType({ description: "What a successor received of its predecessor's structured state." })
export class TransferredState {
  @Field(() => PlanTransfer, { description: "What happened to the predecessor's plan: CARRY, CLOSE or OMIT." })
  plan: PlanTransfer;

  @Field(() => Int, { nullable: true, description: "The predecessor plan's revision that was carried or closed." })
  planRevision: number | null;

  @Field(() => [ID], { description: 'Pending delegated runs now reporting to the successor (same ids and tool-call ids).' })
  pendingRunIds: string[];

  @Field(() => [String], { description: 'Tool names pinned in the successor.' })
  pinnedTools: string[];

  @Field(() => [ResourceRef], { description: 'Resource versions pinned in the successor, each at the exact version it resolved to; revoked ones are left out.' })
  pinnedResources: ResourceRef[];
}

@ObjectType({ description: 'The exact sources and state a successor started from. Stored once, never rewritten.', implements: Node })
export class ProjectionManifest {
  @Field(() => ID, { description: 'Globally unique (a UUID); Query.node finds the manifest by it.' })
  id: string;

  @Field({ description: 'When the continuation committed.' })
  createdAt: Date;

  @Field(() => ID, { description: 'The session continued.' })
  predecessorId: string;

  @Field(() => ID, { description: 'The session created for the continuation.' })
  successorId: string;

  @Field(() => ID, { description: 'The first session of the lineage.' })
  originId: string;

  @Field(() => ID, { description: 'The user message that caused the continuation.' })
  initiatingEventId: string;

  @Field(() => Actor, { description: 'Who made the transition, as on its edge.' })
  actor: Actor;

  @Field(() => ContinuationReason, { description: 'Why the predecessor was continued, as on its edge.' })
  reason: ContinuationReason;

  @Field(() => [ManifestItem], { description: 'The initiating message, the recent exchange and every cited source, in priority order.' })
  items: ManifestItem[];

  @Field(() => TransferredState, { description: 'The structured state carried exactly: plan, pending runs, pinned tools and resources.' })
  transferredState: TransferredState;

  @Field({ description: "Runtime-generated lineage block placed in the successor's context." })
  lineageBlock: string;

  @Field({ description: 'Version of the projection compiler that built the context.' })
  compilerVersion: string;

  @Field({ description: 'Tokenizer / model the token counts were computed for.' })
  modelVersion: string;

  @Field(() => Int, { description: "Token budget of the successor's initial context: the one requested, or the server's default." })
  tokenBudget: number;

  @Field(() => Int, { description: 'Tokens of the compiled initial context; never above tokenBudget.' })
  tokenCost: number;

  @Field({ description: "sha256 over the manifest's canonical content (see the API documentation, docs/api.md)." })
  hash: string;
}

@ObjectType({ description: 'One session of a lineage tree, with the edge into it.' })
export class LineageNode {
  @Field(() => Session, { description: 'A session of the lineage tree.' })
  session: SessionEntity;

  @Field(() => Int, { description: 'Continuation edges between the origin and this session.' })
  depth: number;

  @Field(() => ContinuationEdge, { nullable: true, description: 'The edge into this session; null for the origin.' })
  edge: ContinuationEdgeEntity | null;
}

@ObjectType({ description: 'The continuation committed (or was replayed): the edge, the successor and its initial run.' })
export class ContinueSessionSuccess {
  @Field(() => ContinuationEdge, { description: 'The continuation edge from the predecessor to the successor.' })
  edge: ContinuationEdgeEntity;

  @Field(() => Session, { description: 'The fresh successor, initialized from the projection.' })
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
  description: 'What continueSession did: the continuation, or the expected failure that wrote nothing.',
  types: () => [ContinueSessionSuccess, OperationError] as const,
});

@ObjectType({ description: 'A continuation, as announced to subscribers once it has committed.' })
export class SessionContinuedEvent {
  @Field(() => ContinuationEdge, { description: 'The new continuation edge.' })
  edge: ContinuationEdgeEntity;

  @Field(() => Session, { description: 'The session continued, now CONTINUED.' })
  predecessor: SessionEntity;

  @Field(() => Session, { description: 'The fresh successor session.' })
  successor: SessionEntity;

  @Field(() => Run, {
    nullable: true,
    description: "The successor's initial run, started automatically: follow its answer with runOutput(runId). Null only when it was erased since.",
  })
  run: RunEntity | null;
}

@ObjectType({ description: 'What continueSession would give the successor, computed the same way; nothing was written.' })
export class ProjectionPreview {
  @Field(() => ProjectedContext, { description: 'The initial context the successor would get.' })
  context: ProjectedContext;

  @Field(() => [ManifestItem], { description: 'The manifest items it would record, in priority order.' })
  items: ManifestItem[];

  @Field(() => Int, { description: "The budget the preview used: the one requested, or the server's default." })
  tokenBudget: number;

  @Field(() => Int, { description: 'Tokens of the compiled context; never above tokenBudget.' })
  tokenCost: number;

  static of(value: ProjectionPreview): ProjectionPreview {
    return Object.assign(new ProjectionPreview(), value);
  }
}

export const ProjectionPreviewResult = createUnionType({
  name: 'ProjectionPreviewResult',
  description: 'The preview, or the failure continueSession would meet with the same input (rate limits aside); nothing was written.',
  types: () => [ProjectionPreview, OperationError] as const,
});
