import { Field, ID, InputType, Int } from 'type-graphql';
import { Actor, ContinuationReason, PlanTransfer, SourceKind } from '../continuations';

@InputType({ description: 'The handoff: orientation for the successor. Each text at most 20,000 characters, each list at most 50 items.' })
export class HandoffInput {
  @Field({ description: 'What the successor is for; required, not empty.' })
  purpose: string;

  @Field({ description: 'What the user asked for, verbatim where possible; required, not empty.' })
  currentRequest: string;

  @Field(() => [String], { nullable: true, description: 'What the work has settled.' })
  establishedFacts?: string[];

  @Field(() => [String], { nullable: true, description: 'Decisions taken, which the successor keeps to.' })
  decisions?: string[];

  @Field(() => [String], { nullable: true, description: 'Questions still open.' })
  openQuestions?: string[];

  @Field(() => [String], { nullable: true, description: 'What to do next, in order.' })
  nextActions?: string[];

  @Field(() => [String], { nullable: true, description: 'Pitfalls and constraints to keep in mind.' })
  cautions?: string[];
}

@InputType({
  description:
    'One of five shapes, chosen by kind: SESSION_EVENTS (sessionId, fromEventId, toEventId), SESSION_EVENT (sessionId, eventId), RESOURCE (url, version?, blockId?), MEMORY (path, cid?), ATTACHMENT (cid). Other fields must be absent.',
})
export class ContinuationSourceInput {
  @Field(() => SourceKind, { description: 'Which shape the source has; it decides which other fields are required.' })
  kind: SourceKind;

  @Field({ description: 'Why the successor needs it; 1 to 500 characters.' })
  relevance: string;

  @Field(() => ID, { nullable: true, description: 'SESSION_EVENTS and SESSION_EVENT: the session holding the events.' })
  sessionId?: string | null;

  @Field(() => ID, { nullable: true, description: 'SESSION_EVENTS: the first event of the range.' })
  fromEventId?: string | null;

  @Field(() => ID, { nullable: true, description: 'SESSION_EVENTS: the last event of the range, inclusive; not before fromEventId.' })
  toEventId?: string | null;

  @Field(() => ID, { nullable: true, description: 'SESSION_EVENT: the event.' })
  eventId?: string | null;

  @Field(() => String, { nullable: true, description: 'RESOURCE: the resource url.' })
  url?: string | null;

  @Field(() => String, { nullable: true, description: 'RESOURCE: an exact version; absent: the latest, pinned as it is now.' })
  version?: string | null;

  @Field(() => String, { nullable: true, description: 'RESOURCE: one block of the version; absent: the whole version.' })
  blockId?: string | null;

  @Field(() => String, { nullable: true, description: 'MEMORY: the memory path.' })
  path?: string | null;

  @Field(() => String, {
    nullable: true,
    description:
      "MEMORY: an exact entry's content id; absent: the entry the path names now. ATTACHMENT: the file's content id, the sha256 of its bytes (64 lower-case hex digits) as the message names it.",
  })
  cid?: string | null;
}

@InputType({ description: 'A resource version to pin, or one block of it.' })
export class ResourceRefInput {
  @Field({ description: 'The resource url.' })
  url: string;

  @Field(() => String, { nullable: true, description: 'An exact version; absent: the latest, pinned as it is now.' })
  version?: string | null;

  @Field(() => String, { nullable: true, description: 'One block of the version; absent: the whole version.' })
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

  @Field(() => [ResourceRefInput], { nullable: true, description: 'Resource versions to keep pinned in the successor, each resolved to an exact version now (SOURCE_NOT_FOUND for one that does not exist).' })
  pinnedResources?: ResourceRefInput[] | null;
}

@InputType({
  description:
    'A request to continue a session in a fresh successor. Input out of its limits is refused with INVALID_INPUT, a cited source that does not exist with SOURCE_NOT_FOUND; nothing is written then.',
})
export class ContinueSessionInput {
  @Field(() => ID, { description: 'The predecessor.' })
  sessionId: string;

  @Field({
    description:
      'Replaying a key returns the successor created for it; the same key with a different request is IDEMPOTENCY_KEY_REUSED. 1 to 200 characters, unique per account.',
  })
  idempotencyKey: string;

  @Field(() => ContinuationReason, { description: 'Why the predecessor is continued.' })
  reason: ContinuationReason;

  @Field({ description: "The successor's title; 1 to 200 characters." })
  title: string;

  @Field(() => String, { nullable: true, description: "The successor's description; at most 2,000 characters." })
  description?: string | null;

  @Field(() => HandoffInput, { description: 'The agent-written orientation for the successor.' })
  handoff: HandoffInput;

  @Field(() => [ContinuationSourceInput], { description: 'Exact sources to cite, most relevant first (at most 100).' })
  sources: ContinuationSourceInput[];

  @Field(() => TransferInput, { nullable: true, description: 'Structured state to carry exactly; absent: nothing is carried and the plan stays behind.' })
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
