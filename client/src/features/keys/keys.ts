import { graphql } from '../../gql';

export const ApiKeyFieldsFragment = graphql(`
  fragment ApiKeyFields on ApiKey {
    id
    name
    prefix
    scopes
    sessionIds
    createdAt
    expiresAt
    lastUsedAt
    revokedAt
  }
`);

export const ApiKeysQuery = graphql(`
  query ApiKeys {
    apiKeys {
      ...ApiKeyFields
    }
  }
`);

export const CreateApiKeyMutation = graphql(`
  mutation CreateApiKey($input: CreateApiKeyInput!) {
    createApiKey(input: $input) {
      __typename
      ... on CreateApiKeySuccess {
        secret
        apiKey {
          ...ApiKeyFields
        }
      }
      ... on OperationError {
        code
        message
      }
    }
  }
`);

export const RevokeApiKeyMutation = graphql(`
  mutation RevokeApiKey($id: ID!) {
    revokeApiKey(id: $id) {
      ...ApiKeyFields
    }
  }
`);

/** The address that signs a browser in with `secret`: the client's own origin with `?key=`. */
export function signInLink(secret: string, origin = window.location.origin): string {
  return `${origin}/?key=${encodeURIComponent(secret)}`;
}

/** When a key made now for `days` days stops working, as the API takes it. */
export function expiryInDays(days: number, now = Date.now()): string {
  return new Date(now + days * 86_400_000).toISOString();
}
