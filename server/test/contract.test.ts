import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { buildSchema, findBreakingChanges } from 'graphql';
import { createAppPubSub } from '../src/graphql/pubsub';
import { buildAppSchema, printAppSchema } from '../src/graphql/schema';

const repoRoot = path.resolve(__dirname, '..', '..');
const committedSchema = readFileSync(path.join(repoRoot, 'schema.graphql'), 'utf8');
/** The published contract, where a checkout sits beside it; the repository keeps a copy for every other checkout. */
const publishedContractPath = path.resolve(repoRoot, '..', 'shared', 'api', 'contract.graphql');
const contractCopy = readFileSync(path.join(repoRoot, 'contract', 'contract.graphql'), 'utf8');
const contract = existsSync(publishedContractPath) ? readFileSync(publishedContractPath, 'utf8') : contractCopy;

describe('the public API contract', () => {
  it('the copy in contract/ is the published contract', () => {
    expect(contractCopy).toBe(contract);
  });

  it('schema.graphql is what the code generates (run "npm run schema" after changing the API)', async () => {
    const generated = printAppSchema(await buildAppSchema(createAppPubSub()));
    expect(committedSchema).toBe(generated);
  });

  it('schema.graphql contains the whole contract without a breaking change', () => {
    expect(findBreakingChanges(buildSchema(contract), buildSchema(committedSchema))).toEqual([]);
  });
});
