import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { buildSchema, findBreakingChanges } from 'graphql';
import { createAppPubSub } from '../../src/api/pubsub';
import { buildAppSchema, printAppSchema } from '../../src/api/schema';

const repoRoot = path.resolve(__dirname, '..', '..', '..');
const committedSchema = readFileSync(path.join(repoRoot, 'schema.graphql'), 'utf8');
/** The published contract, where a checkout sits beside it; the repository keeps a copy for every other checkout. */
const publishedContractPath = path.resolve(repoRoot, '..', 'shared', 'api', 'contract.graphql');
const contractCopy = readFileSync(path.join(repoRoot, 'contract', 'contract.graphql'), 'utf8');
const contract = existsSync(publishedContractPath) ? readFileSync(publishedContractPath, 'utf8') : contractCopy;

/**
 * Parts of the contract that no code serves yet, each with the issue that will serve it.
 * Resolving an issue removes its lines; the list is empty when the contract is served whole.
 */
const notServedYet: Record<string, string> = {
};

describe('the public API contract', () => {
  it('the copy in contract/ is the published contract', () => {
    expect(contractCopy).toBe(contract);
  });

  it('schema.graphql is what the code generates (run "npm run schema" after changing the API)', async () => {
    const generated = printAppSchema(await buildAppSchema(createAppPubSub()));
    expect(committedSchema).toBe(generated);
  });

  const findings = findBreakingChanges(buildSchema(contract), buildSchema(committedSchema)).map((change) => change.description);

  it('schema.graphql contains the contract without a breaking change, except the parts not served yet', () => {
    expect(findings.filter((finding) => !(finding in notServedYet))).toEqual([]);
  });

  it('the list of parts not served yet names only what is still missing', () => {
    expect(Object.keys(notServedYet).filter((name) => !findings.includes(name))).toEqual([]);
  });
});
