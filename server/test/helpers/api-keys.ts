import { GraphQLTestClient } from './graphql-client';

export const CREATE_KEY = `mutation ($input: CreateApiKeyInput!) { createApiKey(input: $input) {
  __typename
  ... on CreateApiKeySuccess { secret apiKey { id name prefix scopes sessionIds createdAt expiresAt lastUsedAt revokedAt } }
  ... on OperationError { code message details { path message } }
} }`;

export interface CreatedKey {
  id: string;
  secret: string;
  /** A client speaking with the new key. */
  client: GraphQLTestClient;
}

/** A new key of `admin`'s account, with a client that uses it. */
export async function createKey(admin: GraphQLTestClient, input: { name?: string; scopes: string[]; sessionIds?: string[]; expiresAt?: string }): Promise<CreatedKey> {
  const { createApiKey } = await admin.data<{ createApiKey: { secret?: string; apiKey?: { id: string }; message?: string } }>(CREATE_KEY, {
    input: { name: 'test key', ...input },
  });
  if (!createApiKey.secret || !createApiKey.apiKey) throw new Error(`createApiKey failed: ${createApiKey.message}`);
  return { id: createApiKey.apiKey.id, secret: createApiKey.secret, client: new GraphQLTestClient(admin.baseUrl, createApiKey.secret) };
}

/** Revokes a key through the API; throws unless the answer carries the revocation's time. */
export async function revokeKey(admin: GraphQLTestClient, id: string): Promise<void> {
  const { revokeApiKey } = await admin.data<{ revokeApiKey: { revokedAt: string | null } | null }>('mutation ($id: ID!) { revokeApiKey(id: $id) { id revokedAt } }', { id });
  if (!revokeApiKey?.revokedAt) throw new Error(`revokeApiKey answered ${JSON.stringify(revokeApiKey)}`);
}
