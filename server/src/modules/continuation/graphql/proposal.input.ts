import { Field, ID, InputType, Int } from 'type-graphql';
import { ContinuationSourceInput, HandoffInput } from './continuation.input';

@InputType({
  description:
    'A person approving a continuation proposal, possibly with edits. The result is checked exactly as a continueSession input with these edits laid over the draft.',
})
export class ApproveContinuationInput {
  @Field(() => ID, { description: 'The proposal (PENDING and not past expiresAt).' })
  proposalId: string;

  @Field(() => String, { nullable: true, description: "The successor's title instead of the agent's; 1 to 200 characters." })
  title?: string | null;

  @Field(() => HandoffInput, { nullable: true, description: "The whole handoff instead of the agent's." })
  handoff?: HandoffInput | null;

  @Field(() => [ContinuationSourceInput], { nullable: true, description: "The sources instead of the agent's (at most 100)." })
  sources?: ContinuationSourceInput[] | null;

  @Field(() => Int, { nullable: true, description: "The token budget instead of the agent's (64 to 1,000,000)." })
  tokenBudget?: number | null;
}
