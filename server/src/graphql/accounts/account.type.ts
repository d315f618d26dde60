import { Field, ID, ObjectType } from 'type-graphql';

@ObjectType({ description: 'A tenant: every session, event and resource belongs to exactly one account.' })
export class Account {
  @Field(() => ID)
  id: string;

  @Field()
  name: string;
}

@ObjectType({ description: 'A new account and its API key. The key is shown only here; the server keeps only its hash.' })
export class AccountWithKey {
  @Field(() => Account)
  account: Account;

  @Field()
  apiKey: string;
}
