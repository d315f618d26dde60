import { Field, ID, InputType, ObjectType, createUnionType, registerEnumType } from 'type-graphql';
import { ApiKeyScope } from '../../shared/access';
import { OperationError } from '../../shared/graphql/operation-error.type';

registerEnumType(ApiKeyScope, {
  name: 'ApiKeyScope',
  description: 'What an API key may do; each scope includes the ones before it.',
  valuesConfig: {
    READ: { description: 'Queries and subscriptions.' },
    WRITE: { description: 'READ, and every mutation on sessions, messages, continuations, plans, resources, memory and attachments.' },
    ADMIN: { description: "WRITE, and managing the account's keys, webhooks, erasure and retention." },
  },
});

@ObjectType({ description: "An API key of the viewer's account. Its secret is shown once, when it is created." })
export class ApiKey {
  @Field(() => ID, { description: "The key's id, which revokeApiKey takes." })
  id: string;

  @Field({ description: 'What the key is for, as its maker named it.' })
  name: string;

  @Field({ description: "The secret's first characters, to recognise it." })
  prefix: string;

  @Field(() => [ApiKeyScope], { description: 'What the key may do, each implied scope written out.' })
  scopes: ApiKeyScope[];

  @Field(() => [ID], { nullable: true, description: 'When set, the key reaches only these sessions and their lineages (successors, branches), and cannot create other sessions.' })
  sessionIds: string[] | null;

  @Field({ description: 'When the key was made.' })
  createdAt: Date;

  @Field(() => Date, { nullable: true, description: 'When the key stops working by itself; null for never.' })
  expiresAt: Date | null;

  @Field(() => Date, { nullable: true, description: 'When the key was last used, to the minute; null before its first use.' })
  lastUsedAt: Date | null;

  @Field(() => Date, { nullable: true, description: 'When the key was revoked; it is refused from then on.' })
  revokedAt: Date | null;
}

@InputType({ description: 'A new key: its name, scopes, and optionally the sessions it is limited to and its expiry.' })
export class CreateApiKeyInput {
  @Field({ description: 'What the key is for: 1 to 100 characters.' })
  name: string;

  @Field(() => [ApiKeyScope], { description: 'At least one; a key cannot hold a scope the key making it lacks.' })
  scopes: ApiKeyScope[];

  @Field(() => [ID], { nullable: true, description: "Limits the key to these sessions' lineages (1 to 100 of the account's sessions); absent for the whole account." })
  sessionIds?: string[] | null;

  @Field(() => Date, { nullable: true, description: 'When the key stops working by itself (in the future); absent for never.' })
  expiresAt?: Date | null;
}

@ObjectType({ description: 'The key made, and its secret.' })
export class CreateApiKeySuccess {
  @Field(() => ApiKey, { description: 'The key as listed from now on.' })
  apiKey: ApiKey;

  @Field({ description: 'Shown only here: send it as `Authorization: Bearer <secret>`. The server keeps only its hash.' })
  secret: string;
}

export const CreateApiKeyResult = createUnionType({
  name: 'CreateApiKeyResult',
  description: 'The key and its secret, or why no key was made.',
  types: () => [CreateApiKeySuccess, OperationError] as const,
});
