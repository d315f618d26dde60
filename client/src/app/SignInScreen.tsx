import { useId, useState, type FormEvent } from 'react';
import './sign-in.css';

interface SignInScreenProps {
  rejected: boolean;
  onSignIn(apiKey: string): void;
}

export function SignInScreen({ rejected, onSignIn }: SignInScreenProps) {
  const [apiKey, setApiKey] = useState('');
  const inputId = useId();
  const hintId = useId();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const trimmed = apiKey.trim();
    if (trimmed !== '') onSignIn(trimmed);
  }

  return (
    <main className="sign-in">
      <section className="sign-in-card" aria-labelledby={`${inputId}-title`}>
        <h1 id={`${inputId}-title`}>Session Continuation</h1>
        {rejected ? (
          <p className="notice notice-error" role="alert">
            The server rejected this API key. Paste a current key to continue.
          </p>
        ) : (
          <p>Sign in with an API key to see your sessions.</p>
        )}
        <form onSubmit={submit} className="stack">
          <label htmlFor={inputId}>API key</label>
          <input
            id={inputId}
            type="password"
            autoComplete="off"
            spellCheck={false}
            required
            aria-describedby={hintId}
            value={apiKey}
            onChange={(event) => setApiKey(event.target.value)}
          />
          <p id={hintId} className="hint">
            The server prints a sign-in link ending in <code>?key=…</code> when it starts; opening
            it signs this browser in. The key stays in this browser only.
          </p>
          <button type="submit" className="button button-primary">
            Sign in
          </button>
        </form>
      </section>
    </main>
  );
}
