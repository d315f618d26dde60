import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { toPayload } from '../../shared/graphql/errors';
import type { OperationError } from '../../shared/graphql/operation-error.type';
import type { AccountsContext } from './accounts.context';
import type { ApiKeyEntity } from './api-key.entity';
import { ApiKey, CreateApiKeyInput, CreateApiKeyResult, CreateApiKeySuccess } from './api-key.type';

/** The API type of a key row: everything but its hash. */
function apiKey(entity: ApiKeyEntity): ApiKey {
  const { id, name, prefix, scopes, sessionIds, createdAt, expiresAt, lastUsedAt, revokedAt } = entity;
  return Object.assign(new ApiKey(), { id, name, prefix, scopes, sessionIds, createdAt, expiresAt, lastUsedAt, revokedAt });
}

@Resolver(() => ApiKey)
export class ApiKeyResolver {
  @Query(() => [ApiKey], { description: "The viewer's account's keys, newest first, revoked ones included (ADMIN scope)." })
  async apiKeys(@Ctx() ctx: AccountsContext): Promise<ApiKey[]> {
    return (await ctx.services.apiKeys.listKeys(ctx.viewer)).map(apiKey);
  }

  @Mutation(() => CreateApiKeyResult, { description: 'A new key of the account, its secret shown once (ADMIN scope).' })
  async createApiKey(@Arg('input', { description: 'Its name, scopes, sessions and expiry.' }) input: CreateApiKeyInput, @Ctx() ctx: AccountsContext): Promise<CreateApiKeySuccess | OperationError> {
    const outcome = await ctx.services.apiKeys.createKey(ctx.viewer, input);
    return toPayload(outcome, ({ key, secret }) => Object.assign(new CreateApiKeySuccess(), { apiKey: apiKey(key), secret }));
  }

  @Mutation(() => ApiKey, { nullable: true, description: 'Revoked at once, on every server process, open WebSockets included; null when the key is unknown (ADMIN scope).' })
  async revokeApiKey(@Arg('id', () => ID, { description: "The key's id." }) id: string, @Ctx() ctx: AccountsContext): Promise<ApiKey | null> {
    const key = await ctx.services.apiKeys.revokeKey(ctx.viewer, id);
    return key ? apiKey(key) : null;
  }
}
