import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EMBEDDED_BUFFER_MB, SERVER_DIST, TEMPLATE_DIR_VARIABLE } from './api-server';

interface Migrator {
  openDatabase(options: { dataDir: string; embeddedBufferMb: number; poolSize: number; entities: unknown[] }): Promise<{ close(): Promise<void> }>;
}

/**
 * Migrates one embedded data folder with the built server's migrations for the whole run: each
 * test's API server starts on a copy of it, which is far quicker than migrating an empty one.
 */
export default async function globalSetup(): Promise<void> {
  const database = path.join(SERVER_DIST, 'platform', 'db', 'database.js');
  // Without a built server startApiServer says what to run; there is nothing to migrate with.
  if (!existsSync(database)) return;
  const { openDatabase } = require(database) as Migrator;
  const { entities } = require(path.join(SERVER_DIST, 'modules', 'entities.js')) as { entities: unknown[] };
  const templateDir = await mkdtemp(path.join(tmpdir(), 'session-continuation-e2e-template-'));
  await (await openDatabase({ dataDir: templateDir, embeddedBufferMb: Number(EMBEDDED_BUFFER_MB), poolSize: 2, entities })).close();
  process.env[TEMPLATE_DIR_VARIABLE] = templateDir;
}
