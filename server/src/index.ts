// First: with tracing on, it patches http, graphql and pg as the imports below load them.
import { tracing } from './platform/observability/instrumentation';
import 'reflect-metadata';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { startApp } from './app';
import { ConfigError, configFromEnv } from './config';
import { DatabaseStartError } from './platform/db/database';
import { logger } from './platform/observability/logger';

async function main(): Promise<void> {
  const config = configFromEnv();
  const app = await startApp(config);
  const { apiKey, storedIn } = app.bootstrapKey;
  logger.info(`Session Continuation API: ${app.url}/graphql (${app.database.embedded ? `embedded database in ${config.dataDir}` : 'PostgreSQL'})`);
  if (storedIn) logger.info(`Admin API key stored in ${storedIn}`);
  // The sign-in link holds the key: it is for the terminal of whoever starts the server, never a log line.
  if (existsSync(path.join(config.clientDist, 'index.html'))) {
    console.log(`Open the app: ${app.url}/?key=${encodeURIComponent(apiKey)}`);
  } else {
    console.log(`Web client not built; with "npm run dev" open http://127.0.0.1:5173/?key=${encodeURIComponent(apiKey)}`);
  }

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal} received: finishing in-flight requests, then stopping.`);
    app
      .close()
      .then(() => tracing?.shutdown())
      .then(
        () => process.exit(0),
        (error) => {
          logger.error({ err: error }, 'Shutdown failed');
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error) => {
  if (error instanceof DatabaseStartError || error instanceof ConfigError) {
    console.error(`Cannot start: ${error.message}`);
  } else {
    console.error('Cannot start:', error);
  }
  process.exit(1);
});
