import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ApolloServerPlugin } from '@apollo/server';
import type express from 'express';

/**
 * `GET /graphiql`: GraphiQL as the client build bundles it (`graphiql.html`), so that the IDE
 * needs no CDN. Without a client build the route says how to get one.
 */
export function serveGraphiQL(app: express.Express, clientDist: string): void {
  const page = path.join(clientDist, 'graphiql.html');
  app.get(['/graphiql', '/graphiql/'], (_req, res) => {
    if (existsSync(page)) res.sendFile(page);
    else res.status(404).type('text/plain').send('GraphiQL is part of the web client build: run "npm run build".\n');
  });
}

/** What a browser opening `/graphql` sees instead of Apollo's landing page, which loads from a CDN. */
export function graphiqlLandingPage(): ApolloServerPlugin {
  const html = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta http-equiv="refresh" content="0; url=/graphiql" />
    <title>Session Continuation GraphQL API</title>
  </head>
  <body>
    <p>This is the GraphQL endpoint. Explore it in <a href="/graphiql">GraphiQL</a>.</p>
  </body>
</html>
`;
  return {
    async serverWillStart() {
      return {
        async renderLandingPage() {
          return { html };
        },
      };
    },
  };
}
