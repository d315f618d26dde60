import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { firstScreenBudget } from './build/first-screen-budget.ts';

// The API server; in production it serves this build itself, so only the dev server proxies.
const apiUrl = process.env.API_URL ?? 'http://127.0.0.1:4000';

export default defineConfig({
  plugins: [react(), firstScreenBudget({ entryName: 'main', limitBytes: 250_000 })],
  // Absolute asset URLs: the server falls back to index.html for nested routes like /sessions/:id.
  base: '/',
  build: {
    rolldownOptions: {
      // The app, and GraphiQL, which the server serves at /graphiql.
      input: { main: 'index.html', graphiql: 'graphiql.html' },
      output: {
        // Libraries change less often than the app: separate chunks stay cached across releases.
        // graphql-js itself is left to the bundler, so the app's chunks carry only the parts it
        // uses (printing, visiting) and not GraphiQL's validation and introspection.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler|cookie)[\\/]/ },
            { name: 'apollo', test: /node_modules[\\/](@apollo|@wry|graphql-ws|optimism|rxjs|tslib)[\\/]/ },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    strictPort: true,
    proxy: {
      '/graphql': { target: apiUrl, ws: true },
      '/healthz': { target: apiUrl },
      '/attachments': { target: apiUrl },
    },
  },
});
