import 'reflect-metadata';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { startApp } from './app';
import { ConfigError, configFromEnv } from './config';
import { DatabaseStartError } from './db/database';

async function main(): Promise<void> {
  const config = configFromEnv();
  const app = await startApp(config);
  const { apiKey, storedIn } = app.bootstrapKey;
  console.log(`Session Continuation API: ${app.url}/graphql (${app.database.embedded ? `embedded database in ${config.dataDir}` : 'PostgreSQL'})`);
  if (storedIn) console.log(`Admin API key stored in ${storedIn}`);
  if (existsSync(path.join(config.clientDist, 'index.html'))) {
    console.log(`Open the app: ${app.url}/?key=${encodeURIComponent(apiKey)}`);
  } else {
    console.log(`Web client not built; with "npm run dev" open http://127.0.0.1:5173/?key=${encodeURIComponent(apiKey)}`);
  }

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal} received: finishing in-flight requests, then stopping.`);
    app.close().then(
      () => process.exit(0),
      (error) => {
        console.error('Shutdown failed:', error);
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
