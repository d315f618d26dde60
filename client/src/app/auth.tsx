import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { forgetApiKey, resolveApiKey, saveApiKey } from './api-key';
import { SignInScreen } from './SignInScreen';

type Credentials =
  | { apiKey: string; rejected: false }
  | { apiKey: null; rejected: boolean };

export interface ApiKeyState {
  apiKey: string | null;
  /** True when the server refused the key the browser had; the sign-in screen says so. */
  rejected: boolean;
  signIn(apiKey: string): void;
  signOut(): void;
  /** Drops `apiKey` after the server answered UNAUTHENTICATED for it (a newer key is kept). */
  rejectApiKey(apiKey: string): void;
}

const ApiKeyContext = createContext<ApiKeyState | null>(null);

export function ApiKeyProvider({ children }: { children: ReactNode }) {
  const [credentials, setCredentials] = useState<Credentials>(() => {
    const apiKey = resolveApiKey(window.location, window.history, window.localStorage);
    return apiKey === null ? { apiKey: null, rejected: false } : { apiKey, rejected: false };
  });

  const signIn = useCallback((apiKey: string) => {
    saveApiKey(window.localStorage, apiKey);
    setCredentials({ apiKey, rejected: false });
  }, []);

  const signOut = useCallback(() => {
    forgetApiKey(window.localStorage);
    setCredentials({ apiKey: null, rejected: false });
  }, []);

  const rejectApiKey = useCallback((apiKey: string) => {
    setCredentials((current) => {
      if (current.apiKey !== apiKey) return current;
      forgetApiKey(window.localStorage);
      return { apiKey: null, rejected: true };
    });
  }, []);

  const state = useMemo(
    () => ({ ...credentials, signIn, signOut, rejectApiKey }),
    [credentials, signIn, signOut, rejectApiKey],
  );
  return <ApiKeyContext.Provider value={state}>{children}</ApiKeyContext.Provider>;
}

export function useApiKey(): ApiKeyState {
  const state = useContext(ApiKeyContext);
  if (state === null) throw new Error('useApiKey must be used inside <ApiKeyProvider>');
  return state;
}

/** The key the page is signed in with; null outside <ApiKeyProvider> (a component rendered on its own). */
export function useSignedInKey(): string | null {
  return useContext(ApiKeyContext)?.apiKey ?? null;
}

/** Renders its children only with an API key; otherwise the sign-in screen. */
export function RequireApiKey({ children }: { children: ReactNode }) {
  const { apiKey, rejected, signIn } = useApiKey();
  if (apiKey === null) return <SignInScreen rejected={rejected} onSignIn={signIn} />;
  return children;
}
