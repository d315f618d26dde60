import { ApolloProvider } from '@apollo/client/react';
import { useEffect, useState, type ReactNode } from 'react';
import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { HomePage } from '../features/sessions/HomePage';
import { SessionRoute } from '../features/transcript/SessionPage';
import { connectToApi, type ApiConnection } from './api-connection';
import { ApiKeyProvider, RequireApiKey, useApiKey } from './auth';
import { NotFoundPage } from './NotFoundPage';
import { AppShell } from './shell/AppShell';
import './app.css';

function createRouter() {
  return createBrowserRouter([
    {
      element: <AppShell />,
      children: [
        { index: true, element: <HomePage /> },
        { path: 'sessions/:sessionId', element: <SessionRoute /> },
        { path: 'keys', lazy: async () => ({ Component: (await import('../features/keys/KeysPage')).KeysPage }) },
        { path: 'account', lazy: async () => ({ Component: (await import('../features/lifecycle/AccountPage')).AccountPage }) },
        { path: 'webhooks', lazy: async () => ({ Component: (await import('../features/webhooks/WebhooksPage')).WebhooksPage }) },
        {
          path: 'continuations/:edgeId',
          // The inspector is a page of its own, opened from a card or a banner: loaded when opened.
          lazy: async () => ({ Component: (await import('../features/handoff/HandoffInspectorPage')).HandoffInspectorRoute }),
        },
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ]);
}

/** One API connection per signed-in key, closed when the key changes or the app unmounts. */
function ApiConnectionProvider({ apiKey, children }: { apiKey: string; children: ReactNode }) {
  const { rejectApiKey } = useApiKey();
  const [connection, setConnection] = useState<ApiConnection | null>(null);

  useEffect(() => {
    const opened = connectToApi(apiKey, { onUnauthenticated: () => rejectApiKey(apiKey) });
    setConnection(opened);
    return () => opened.close();
  }, [apiKey, rejectApiKey]);

  if (!connection) return null;
  return <ApolloProvider client={connection.client}>{children}</ApolloProvider>;
}

function SignedInApp() {
  const { apiKey } = useApiKey();
  const [router] = useState(createRouter);
  if (apiKey === null) return null;
  return (
    <ApiConnectionProvider apiKey={apiKey}>
      <RouterProvider router={router} />
    </ApiConnectionProvider>
  );
}

export function App() {
  return (
    <ApiKeyProvider>
      <RequireApiKey>
        <SignedInApp />
      </RequireApiKey>
    </ApiKeyProvider>
  );
}
