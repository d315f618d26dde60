import { buildAppSchema } from '../../src/api/schema';
import { createAppPubSub } from '../../src/api/pubsub';
import { fieldsWithoutAccess } from '../../src/api/field-access-enforcement';
import { mcpToolDefinitions } from '../../src/mcp/tools';
import { TOOL_ACCESS } from '../../src/mcp/tool-access';

describe('the access table', () => {
  it('names the scope and session reach of every Query, Mutation and Subscription field', async () => {
    expect(fieldsWithoutAccess(await buildAppSchema(createAppPubSub()))).toEqual([]);
  });

  it('names the scope and session reach of every MCP tool', async () => {
    const tools = mcpToolDefinitions(await buildAppSchema(createAppPubSub())).map((tool) => tool.name);
    expect(tools.filter((name) => !(name in TOOL_ACCESS))).toEqual([]);
  });
});
