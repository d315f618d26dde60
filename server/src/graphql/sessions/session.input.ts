import { Field, InputType } from 'type-graphql';

@InputType({ description: 'A new ROOT session.' })
export class CreateSessionInput {
  @Field({ description: 'Shown in lists and on transition cards; 1 to 200 characters.' })
  title: string;

  @Field(() => String, { nullable: true, description: 'At most 2,000 characters.' })
  description?: string | null;
}
