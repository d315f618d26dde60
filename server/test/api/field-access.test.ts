import type { GraphQLResolveInfo } from 'graphql';
import { buildAppSchema } from '../../src/api/schema';
import { createAppPubSub } from '../../src/api/pubsub';
import { fieldsWithoutAccess } from '../../src/api/field-access-enforcement';
import { mcpToolDefinitions } from '../../src/mcp/tools';
import { TOOL_ACCESS } from '../../src/mcp/tool-access';
import type { Viewer } from '../../src/shared/viewer';

const reader: Viewer = { accountId: '00000000-0000-4000-8000-000000000001', name: 'reader', isAdmin: false, keyId: null, keyExpiresAt: null, scopes: ['READ'], reach: null };

describe('the access table', () => {
  it('names the scope and session reach of every Query, Mutation and Subscription field', async () => {
    expect(fieldsWithoutAccess(await buildAppSchema(createAppPubSub()))).toEqual([]);
  });

  it('refuses every mutation to a READ key before its resolver runs, naming the scope it needs', async () => {
    const mutations = Object.values((await buildAppSchema(createAppPubSub())).getMutationType()!.getFields());
    expect(mutations.length).toBeGreaterThan(15);
    for (const field of mutations) {
      // No services in the context: a resolver that ran would fail otherwise than with FORBIDDEN.
      const answer = Promise.resolve().then(() => field.resolve!(undefined, {}, { viewer: reader }, {} as GraphQLResolveInfo));
      await expect(answer).rejects.toMatchObject({ extensions: { code: 'FORBIDDEN', scope: expect.stringMatching(/^(WRITE|ADMIN)$/) } });
    }
  });

  it('names the scope and session reach of every MCP tool', async () => {
    const tools = mcpToolDefinitions(await buildAppSchema(createAppPubSub())).map((tool) => tool.name);
    expect(tools.filter((name) => !(name in TOOL_ACCESS))).toEqual([]);
  });
});
