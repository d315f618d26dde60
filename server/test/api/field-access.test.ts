import { buildAppSchema } from '../../src/api/schema';
import { createAppPubSub } from '../../src/api/pubsub';
import { fieldsWithoutAccess } from '../../src/api/field-access-enforcement';

describe('the access table', () => {
  it('names the scope and session reach of every Query, Mutation and Subscription field', async () => {
    expect(fieldsWithoutAccess(await buildAppSchema(createAppPubSub()))).toEqual([]);
  });
});
