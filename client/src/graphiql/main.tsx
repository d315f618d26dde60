import 'graphiql/setup-workers/vite';
import 'graphiql/style.css';
import { createGraphiQLFetcher } from '@graphiql/toolkit';
import { GraphiQL } from 'graphiql';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { loadApiKey } from '../app/api-key';

// The key the web client stored when this browser signed in; a header typed in the editor wins.
const apiKey = loadApiKey(window.localStorage);
const authorization = apiKey ? { Authorization: `Bearer ${apiKey}` } : undefined;
const origin = window.location.origin;

const fetcher = createGraphiQLFetcher({
  url: `${origin}/graphql`,
  subscriptionUrl: `${origin.replace(/^http/, 'ws')}/graphql`,
  headers: authorization,
  wsConnectionParams: apiKey ? { authorization: `Bearer ${apiKey}` } : undefined,
});

// Signed out, the header editor shows what to send.
const defaultHeaders = apiKey ? undefined : JSON.stringify({ Authorization: 'Bearer <api key>' }, null, 2);

createRoot(document.getElementById('graphiql')!).render(
  <StrictMode>
    <GraphiQL fetcher={fetcher} defaultHeaders={defaultHeaders} defaultQuery={'{\n  viewer {\n    id\n    name\n  }\n}\n'} />
  </StrictMode>,
);
