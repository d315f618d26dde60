import { useState } from 'react';
import { ModalDialog } from '../../app/ModalDialog';
import { CopyableSecret } from './CopyableSecret';
import { expiryInDays, signInLink } from './keys';
import { useCreateApiKey } from './useCreateApiKey';

const LIFETIMES = [1, 7, 30] as const;

/**
 * Shares a conversation read-only: a key that can only read this session's lineage and expires,
 * shown as a sign-in link. Anyone with the link reads the conversation, even as it continues,
 * until the key expires or is revoked on the keys page.
 */
export function ShareSessionDialog({ session, onClose }: { session: { id: string; title: string }; onClose(): void }) {
  const { createKey, creating, secret, error } = useCreateApiKey();
  const [days, setDays] = useState<(typeof LIFETIMES)[number]>(7);
  return (
    <ModalDialog labelledBy="share-heading" onClose={onClose}>
      <h2 id="share-heading">Share “{session.title}” read-only</h2>
      {secret ? (
        <>
          <p>Anyone with this link can read the conversation, and its continuations, until it expires. It is shown only now.</p>
          <CopyableSecret label="Share link" value={signInLink(secret)} />
        </>
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void createKey({ name: `Share: ${session.title}`.slice(0, 100), scopes: ['READ'], sessionIds: [session.id], expiresAt: expiryInDays(days) });
          }}
        >
          <label className="field">
            <span>The link works for</span>
            <select value={days} onChange={(event) => setDays(Number(event.target.value) as (typeof LIFETIMES)[number])}>
              {LIFETIMES.map((value) => (
                <option key={value} value={value}>
                  {value === 1 ? '1 day' : `${value} days`}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="button button-primary" disabled={creating}>
            Create link
          </button>
          {error && (
            <p className="notice notice-error" role="alert">
              No link was made: {error}
            </p>
          )}
        </form>
      )}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
      </div>
    </ModalDialog>
  );
}
