import { Field, ID, InputType, Int } from 'type-graphql';
import { Actor, ContinuationReason, PlanTransfer, SourceKind } from '../../domain/continuations';

@InputType({ description: 'The handoff: orientation for the successor. Each text at most 20,000 characters, each list at most 50 items.' })
export class HandoffInput {
  @Field()
  purpose: string;

  @Field()
  currentRequest: string;

  @Field(() => [String], { nullable: true })
  establishedFacts?: string[];

  @Field(() => [String], { nullable: true })
  decisions?: string[];

  @Field(() => [String], { nullable: true })
  openQuestions?: string[];

  @Field(() => [String], { nullable: true })
  nextActions?: string[];

  @Field(() => [String], { nullable: true })
  cautions?: string[];
}

@InputType({
  description:
    'One of four shapes, chosen by kind: SESSION_EVENTS (sessionId, fromEventId, toEventId), SESSION_EVENT (sessionId, eventId), RESOURCE (url, version?, blockId?), MEMORY (path, cid?). Other fields must be absent.',
})
export class ContinuationSourceInput {
  @Field(() => SourceKind)
  kind: SourceKind;

  @Field({ description: 'Why the successor needs it; 1 to 500 characters.' })
  relevance: string;

  @Field(() => ID, { nullable: true })
  sessionId?: string | null;

  @Field(() => ID, { nullable: true })
  fromEventId?: string | null;

  @Field(() => ID, { nullable: true })
  toEventId?: string | null;

  @Field(() => ID, { nullable: true })
  eventId?: string | null;

  @Field(() => String, { nullable: true })
  url?: string | null;

  @Field(() => String, { nullable: true })
  version?: string | null;

  @Field(() => String, { nullable: true })
  blockId?: string | null;

  @Field(() => String, { nullable: true })
  path?: string | null;

  @Field(() => String, { nullable: true })
  cid?: string | null;
}

@InputType()
export class ResourceRefInput {
  @Field()
  url: string;

  @Field(() => String, { nullable: true })
  version?: string | null;

  @Field(() => String, { nullable: true })
  blockId?: string | null;
}

@InputType({ description: 'Structured state to carry exactly (at most 50 items per list).' })
export class TransferInput {
  @Field(() => PlanTransfer, { nullable: true, description: 'Default OMIT.' })
  plan?: PlanTransfer | null;

  @Field(() => [ID], { nullable: true, description: 'Every pending delegated run of the predecessor, moved to the successor.' })
  pendingRuns?: string[] | null;

  @Field(() => [String], { nullable: true, description: 'Tool names to keep pinned in the successor.' })
  pinnedTools?: string[] | null;

  @Field(() => [ResourceRefInput], { nullable: true })
  pinnedResources?: ResourceRefInput[] | null;
}

@InputType()
export class ContinueSessionInput {
  @Field(() => ID, { description: 'The predecessor.' })
  sessionId: string;

  @Field({
    description:
      'Replaying a key returns the successor created for it; the same key with a different request is IDEMPOTENCY_KEY_REUSED. 1 to 200 characters, unique per account.',
  })
  idempotencyKey: string;

  @Field(() => ContinuationReason)
  reason: ContinuationReason;

  @Field({ description: "The successor's title; 1 to 200 characters." })
  title: string;

  @Field(() => String, { nullable: true })
  description?: string | null;

  @Field(() => HandoffInput)
  handoff: HandoffInput;

  @Field(() => [ContinuationSourceInput], { description: 'Exact sources to cite, most relevant first (at most 100).' })
  sources: ContinuationSourceInput[];

  @Field(() => TransferInput, { nullable: true })
  transfer?: TransferInput | null;

  @Field(() => ID, { nullable: true, description: "Defaults to the predecessor's latest user message." })
  initiatingEventId?: string | null;

  @Field(() => Int, {
    nullable: true,
    description: "Token budget of the successor's initial context (64 to 1,000,000); the server's default (8,000) when absent.",
  })
  tokenBudget?: number | null;

  @Field(() => Actor, {
    nullable: true,
    description: 'Who decided to continue: AGENT (default), or USER when a person asked for or confirmed it. SYSTEM is refused.',
  })
  actor?: Actor | null;

  @Field(() => Boolean, {
    nullable: true,
    description:
      "Fill the budget left after the cited sources with sources that assisted selection recommends for the handoff's purpose and current request (manifest items with origin RECOMMENDED).",
  })
  assist?: boolean | null;
}
