import { useMutation, useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { formatDateTime } from '../../app/format';
import { TopBar } from '../../app/shell/TopBar';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import type { ApiKeyFieldsFragment, ApiKeyScope } from '../../gql/graphql';
import { CopyableSecret } from './CopyableSecret';
import { ApiKeysQuery, expiryInDays, RevokeApiKeyMutation } from './keys';
import { SCOPE_LABELS, useCreateApiKey } from './useCreateApiKey';
import './keys.css';

const SCOPES: ApiKeyScope[] = ['READ', 'WRITE', 'ADMIN'];

/** The form that makes a key: its name, its scope, optionally one session and a lifetime. */
function CreateKeyForm() {
  const { createKey, creating, secret, error } = useCreateApiKey();
  const [name, setName] = useState('');
  const [scope, setScope] = useState<ApiKeyScope>('READ');
  const [sessionId, setSessionId] = useState('');
  const [days, setDays] = useState('');
  const validDays = days === '' || (/^\d+$/.test(days) && Number(days) >= 1 && Number(days) <= 3650);
  const valid = name.trim().length > 0 && name.trim().length <= 100 && validDays;

  return (
    <form
      className="create-key-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (!valid) return;
        void createKey({
          name: name.trim(),
          scopes: [scope],
          sessionIds: sessionId.trim() ? [sessionId.trim()] : null,
          expiresAt: days ? expiryInDays(Number(days)) : null,
        }).then((made) => made && setName(''));
      }}
    >
      <label className="field">
        <span>Name</span>
        <input type="text" value={name} maxLength={100} onChange={(event) => setName(event.target.value)} placeholder="e.g. Dashboard" />
      </label>
      <fieldset className="field">
        <legend>Scope</legend>
        {SCOPES.map((value) => (
          <label key={value} className="checkbox-field">
            <input type="radio" name="scope" value={value} checked={scope === value} onChange={() => setScope(value)} /> {SCOPE_LABELS[value]}
          </label>
        ))}
      </fieldset>
      <label className="field">
        <span>Limit to one session (its id; empty for the whole account)</span>
        <input type="text" value={sessionId} onChange={(event) => setSessionId(event.target.value)} />
      </label>
      <label className="field">
        <span>Expires after this many days (empty for never)</span>
        <input type="number" min={1} max={3650} value={days} onChange={(event) => setDays(event.target.value)} />
      </label>
      <button type="submit" className="button button-primary" disabled={!valid || creating}>
        Create key
      </button>
      {error && (
        <p className="notice notice-error" role="alert">
          No key was made: {error}
        </p>
      )}
      {secret && (
        <div className="notice notice-info" role="status">
          <p>The key is made. Copy its secret now: it is shown only this once.</p>
          <CopyableSecret label="Secret" value={secret} />
        </div>
      )}
    </form>
  );
}

/** One key of the list, with its use and a revoke button while it works. */
function KeyRow({ apiKey }: { apiKey: ApiKeyFieldsFragment }) {
  const [revoke, { loading }] = useMutation(RevokeApiKeyMutation);
  const expired = apiKey.expiresAt !== null && apiKey.expiresAt !== undefined && new Date(apiKey.expiresAt).getTime() <= Date.now();
  const state = apiKey.revokedAt ? `Revoked ${formatDateTime(apiKey.revokedAt)}` : expired ? 'Expired' : 'Active';
  return (
    <tr>
      <th scope="row">{apiKey.name}</th>
      <td>
        <code>{apiKey.prefix ? `${apiKey.prefix}…` : '—'}</code>
      </td>
      <td>{apiKey.scopes.at(-1)}</td>
      <td>{apiKey.sessionIds?.length ? apiKey.sessionIds.join(', ') : 'All sessions'}</td>
      <td>{apiKey.lastUsedAt ? formatDateTime(apiKey.lastUsedAt) : 'Never'}</td>
      <td>{apiKey.expiresAt ? formatDateTime(apiKey.expiresAt) : 'Never'}</td>
      <td>{state}</td>
      <td>
        {!apiKey.revokedAt && (
          <button type="button" className="button button-quiet" disabled={loading} aria-label={`Revoke ${apiKey.name}`} onClick={() => void revoke({ variables: { id: apiKey.id } })}>
            Revoke
          </button>
        )}
      </td>
    </tr>
  );
}

/** The route `/keys`: the account's API keys, a form that makes one, and revocation. */
export function KeysPage() {
  const { data, loading, error } = useQuery(ApiKeysQuery, { fetchPolicy: 'cache-and-network' });
  useDocumentTitle('API keys');
  return (
    <div className="page">
      <TopBar>
        <h1>API keys</h1>
      </TopBar>
      <div className="keys-page">
        <section aria-labelledby="new-key-heading">
          <h2 id="new-key-heading">New key</h2>
          <CreateKeyForm />
        </section>
        <section aria-labelledby="keys-heading">
          <h2 id="keys-heading">Keys</h2>
          {loading && !data && <p role="status">Loading the keys…</p>}
          {error && !data && (
            <p className="notice notice-error" role="alert">
              The keys could not be loaded ({error.message}).
            </p>
          )}
          {data && (
            <table className="keys-table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Prefix</th>
                  <th scope="col">Scope</th>
                  <th scope="col">Sessions</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Expires</th>
                  <th scope="col">State</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.apiKeys.map((apiKey) => (
                  <KeyRow key={apiKey.id} apiKey={apiKey} />
                ))}
              </tbody>
            </table>
          )}
        </section>
      </div>
    </div>
  );
}
