import { Field, ID, ObjectType } from 'type-graphql';

@ObjectType({
  description:
    "An agent's continue_session call in an ASK session, waiting for a person. Its title and handoff are the agent's draft; an approved continuation's own show the person's edits.",
})
export class ContinuationProposal {
  @Field(() => ID, { description: 'Globally unique (a UUID).' })
  id: string;

  @Field({ description: 'When the agent proposed it.' })
  createdAt: Date;

  @Field({ description: 'Until when it can be approved or rejected; after that it is EXPIRED.' })
  expiresAt: Date;

  @Field(() => Date, { nullable: true, description: 'When it was approved, rejected or expired; null while PENDING.' })
  decidedAt: Date | null;

  @Field(() => String, { nullable: true, description: "A person's note when rejecting (at most 2,000 characters); the agent reads it." })
  note: string | null;
}
