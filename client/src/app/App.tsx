import { ApolloProvider } from '@apollo/client/react';
import { useEffect, useState, type ReactNode } from 'react';
import { createBrowserRouter, Outlet } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { HandoffInspectorRoute } from '../features/handoff/HandoffInspectorPage';
import { SessionsPage } from '../features/sessions/SessionsPage';
import { SessionRoute } from '../features/transcript/SessionPage';
import { connectToApi, type ApiConnection } from './api-connection';
import { AppHeader } from './AppHeader';
import { ApiKeyProvider, RequireApiKey, useApiKey } from './auth';
import { NotFoundPage } from './NotFoundPage';
import './app.css';

function Layout() {
  return (
    <div className="app">
      <AppHeader />
      <main className="app-main">
        <Outlet />
      </main>
    </div>
  );
}

function createRouter() {
  return createBrowserRouter([
    {
      element: <Layout />,
      children: [
        { index: true, element: <SessionsPage /> },
        { path: 'sessions/:sessionId', element: <SessionRoute /> },
        { path: 'continuations/:edgeId', element: <HandoffInspectorRoute /> },
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
