import { useMutation } from '@apollo/client/react';
import { useState } from 'react';
import type { ApiKeyScope, CreateApiKeyInput } from '../../gql/graphql';
import { ApiKeysQuery, CreateApiKeyMutation } from './keys';

/** Makes a key; its secret is kept here to be shown once, and the list of keys is read again. */
export function useCreateApiKey() {
  const [create, { loading }] = useMutation(CreateApiKeyMutation, { refetchQueries: [ApiKeysQuery] });
  const [secret, setSecret] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function createKey(input: CreateApiKeyInput): Promise<string | null> {
    setError(null);
    setSecret(null);
    try {
      const { data } = await create({ variables: { input } });
      const result = data?.createApiKey;
      if (result?.__typename === 'CreateApiKeySuccess') {
        setSecret(result.secret);
        return result.secret;
      }
      setError(result?.__typename === 'OperationError' ? result.message : 'No answer from the server.');
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    }
    return null;
  }
  return { createKey, creating: loading, secret, error };
}

export const SCOPE_LABELS: Record<ApiKeyScope, string> = {
  READ: 'Read: queries and live updates',
  WRITE: 'Write: read, and send messages, continue, fork, upload',
  ADMIN: 'Admin: write, and manage keys, erasure and retention',
};
