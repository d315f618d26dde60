import { Field, ID, ObjectType } from 'type-graphql';

@ObjectType({ description: 'A tenant: every session, event and resource belongs to exactly one account.' })
export class Account {
  @Field(() => ID, { description: "The account's id." })
  id: string;

  @Field({ description: 'Display name, as given when the account was created.' })
  name: string;
}

@ObjectType({ description: 'A new account and its API key. The key is shown only here; the server keeps only its hash.' })
export class AccountWithKey {
  @Field(() => Account, { description: 'The account just created.' })
  account: Account;

  @Field({ description: 'Its API key: send it as `Authorization: Bearer <key>`. Shown only here; it cannot be read again.' })
  apiKey: string;
}
