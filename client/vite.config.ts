import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The API server; in production it serves this build itself, so only the dev server proxies.
const apiUrl = process.env.API_URL ?? 'http://127.0.0.1:4000';

export default defineConfig({
  plugins: [react()],
  // Absolute asset URLs: the server falls back to index.html for nested routes like /sessions/:id.
  base: '/',
  build: {
    rolldownOptions: {
      // The app, and GraphiQL, which the server serves at /graphiql.
      input: { main: 'index.html', graphiql: 'graphiql.html' },
      output: {
        // Libraries change less often than the app: separate chunks stay cached across releases.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler|cookie)[\\/]/ },
            { name: 'graphql', test: /node_modules[\\/](@apollo|@wry|graphql|graphql-ws|optimism|rxjs|tslib)[\\/]/ },
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
