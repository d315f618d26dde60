import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { generate } from '@graphql-codegen/cli';
import config from '../codegen.js';

it('ships operation types generated from the current schema.graphql (npm run codegen -w sdk rewrites them)', async () => {
  process.chdir(fileURLToPath(new URL('..', import.meta.url)));
  const [generated] = await generate({ ...config, silent: true }, false);
  const committed = await readFile('src/generated/operations.ts', 'utf8');
  assert.equal(committed, generated.content, 'src/generated/operations.ts is stale: run npm run codegen -w sdk');
});
