import { Field, ID, InputType } from 'type-graphql';
import { ContinuationApproval } from '../sessions';

@InputType({ description: 'A new ROOT session.' })
export class CreateSessionInput {
  @Field({ description: 'Shown in lists and on transition cards; 1 to 200 characters.' })
  title: string;

  @Field(() => String, { nullable: true, description: 'At most 2,000 characters.' })
  description?: string | null;

  @Field(() => ContinuationApproval, { nullable: true, description: "Whether the agent's continuations wait for a person; absent: the server's default (CONTINUATION_APPROVAL)." })
  continuationApproval?: ContinuationApproval | null;
}

@InputType({ description: 'An alternative path from an earlier point of a session.' })
export class ForkSessionInput {
  @Field(() => ID, { description: 'The last event the fork inherits; its history up to here is referenced, not copied.' })
  eventId: string;

  @Field(() => String, { nullable: true, description: 'Defaults to the source title with the fork point.' })
  title?: string | null;
}
