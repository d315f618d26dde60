import { Field, ID, InputType } from 'type-graphql';

@InputType({ description: 'A user message for a session.' })
export class PostMessageInput {
  @Field(() => ID, { description: "The session to write to; NOT_FOUND for another account's." })
  sessionId: string;

  @Field({ description: 'The message; 1 to 100,000 characters, not only white space.' })
  text: string;

  @Field(() => String, {
    nullable: true,
    description: 'Stable client key (1 to 200 characters): replaying the same key returns the first result.',
  })
  clientMessageId?: string | null;

  @Field(() => Boolean, {
    nullable: true,
    description:
      'Writing to a CONTINUED session is refused unless this is true; then a new continuation branch is created for the message.',
  })
  branch?: boolean | null;

  @Field(() => [String], {
    nullable: true,
    description:
      'Content ids of files uploaded beforehand (POST /attachments), in order: at most 20, none twice. A cid the account does not hold is NOT_FOUND, writing nothing.',
  })
  attachments?: string[] | null;
}
