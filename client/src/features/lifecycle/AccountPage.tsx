import { useMutation, useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { Link } from 'react-router';
import { formatCount, formatDateTime } from '../../app/format';
import { TopBar } from '../../app/shell/TopBar';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import { graphql } from '../../gql';
import { ImportButton } from './ImportButton';
import './lifecycle.css';

export const AccountSettingsQuery = graphql(`
  query AccountSettings {
    viewer {
      id
      name
      retentionDays
    }
    erasures(first: 20) {
      id
      scope
      sessionIds
      eventCount
      attachmentCount
      reason
      actor
      requestedBy
      erasedAt
    }
  }
`);

export const SetRetentionPolicyMutation = graphql(`
  mutation SetRetentionPolicy($retentionDays: Int) {
    setRetentionPolicy(retentionDays: $retentionDays) {
      id
      retentionDays
    }
  }
`);

const SCOPE_WORDS = { SESSION: 'a session', LINEAGE: 'a conversation', EVENT: 'one message' } as const;

/** The retention setting: keep everything, or erase conversations quiet for a number of days. */
function RetentionForm({ retentionDays }: { retentionDays: number | null }) {
  const [keepAll, setKeepAll] = useState(retentionDays === null);
  const [days, setDays] = useState(String(retentionDays ?? 365));
  const [saved, setSaved] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [save, { loading }] = useMutation(SetRetentionPolicyMutation);
  const valid = keepAll || (/^\d+$/.test(days) && Number(days) >= 1 && Number(days) <= 36_500);

  async function submit() {
    setSaved(null);
    setError(null);
    try {
      const { data } = await save({ variables: { retentionDays: keepAll ? null : Number(days) } });
      const kept = data?.setRetentionPolicy.retentionDays;
      setSaved(kept == null ? 'Everything is kept.' : `Conversations with no new message for ${formatCount(kept, 'day')} are erased.`);
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    }
  }

  return (
    <form
      className="retention-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (valid) void submit();
      }}
    >
      <label className="checkbox-field">
        <input type="checkbox" checked={keepAll} onChange={(event) => setKeepAll(event.target.checked)} /> Keep everything
      </label>
      <label className="field">
        <span>Erase conversations after this many days without a new message</span>
        <input type="number" min={1} max={36500} value={days} disabled={keepAll} onChange={(event) => setDays(event.target.value)} />
      </label>
      <button type="submit" className="button button-primary" disabled={!valid || loading}>
        Save retention
      </button>
      <p role="status" className="retention-status">
        {saved}
      </p>
      {error && (
        <p className="notice notice-error" role="alert">
          Not saved: {error}
        </p>
      )}
    </form>
  );
}

/** The route `/account`: the account's retention, its import, and the receipts of what was erased. */
export function AccountPage() {
  const { data, loading, error } = useQuery(AccountSettingsQuery, { fetchPolicy: 'cache-and-network' });
  useDocumentTitle('Account');
  return (
    <div className="page">
      <TopBar>
        <h1>Account{data ? `: ${data.viewer.name}` : ''}</h1>
      </TopBar>
      <div className="account-page">
        {loading && !data && <p role="status">Loading the account…</p>}
        {error && !data && (
          <p className="notice notice-error" role="alert">
            The account could not be loaded ({error.message}).
          </p>
        )}
        {data && (
          <>
            <section aria-labelledby="retention-heading">
              <h2 id="retention-heading">Retention</h2>
              <p>A conversation whose last message is older than the period is erased whole, with a receipt below.</p>
              <RetentionForm retentionDays={data.viewer.retentionDays ?? null} />
            </section>
            <section aria-labelledby="import-heading">
              <h2 id="import-heading">Import</h2>
              <p>A bundle exported from a session&apos;s menu (.zip), or a conversation in the OpenAI chat format (.json).</p>
              <ImportButton />
            </section>
            <section aria-labelledby="webhooks-heading">
              <h2 id="webhooks-heading">Webhooks</h2>
              <p>
                Systems that are not connected hear of continuations, messages, runs, proposals and erasures through <Link to="/webhooks">webhook endpoints</Link>.
              </p>
            </section>
            <section aria-labelledby="erasures-heading">
              <h2 id="erasures-heading">Erasures</h2>
              {data.erasures.length === 0 ? (
                <p>Nothing has been erased.</p>
              ) : (
                <ul className="receipts">
                  {data.erasures.map((receipt) => (
                    <li key={receipt.id}>
                      <time dateTime={receipt.erasedAt}>{formatDateTime(receipt.erasedAt)}</time>: {SCOPE_WORDS[receipt.scope]} (
                      {formatCount(receipt.sessionIds.length, 'session')}, {formatCount(receipt.eventCount, 'event')},{' '}
                      {formatCount(receipt.attachmentCount, 'attachment')}) by {receipt.actor === 'SYSTEM' ? 'the retention policy' : receipt.requestedBy}: {receipt.reason}
                    </li>
                  ))}
                </ul>
              )}
            </section>
          </>
        )}
      </div>
    </div>
  );
}
