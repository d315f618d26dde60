/**
 * The server's import rules (docs/architecture.md): imports point one way, from the composition
 * down through the adapters and the modules to the platform and the shared kernel.
 * `test/architecture.test.ts` runs this check.
 */
const modules = ['accounts', 'attachments', 'resources', 'webhooks', 'conversation', 'plans', 'search', 'continuation', 'integrity', 'lifecycle'];
/** What each module may import besides itself, the platform and the shared kernel. */
const below = {
  accounts: [],
  attachments: [],
  resources: [],
  webhooks: [],
  conversation: ['attachments', 'webhooks'],
  plans: ['conversation', 'attachments'],
  search: ['conversation', 'attachments'],
  continuation: ['conversation', 'plans', 'resources', 'attachments', 'search', 'webhooks'],
  integrity: ['conversation', 'continuation', 'plans', 'resources', 'attachments'],
  lifecycle: ['accounts', 'attachments', 'resources', 'conversation', 'plans', 'search', 'continuation', 'integrity', 'webhooks'],
};
const composition = '^src/(app|config|index)\\.ts$|^src/scripts/';

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'shared-imports-only-shared',
      comment: 'The shared kernel (errors, ids, text, tokens, GraphQL scalars) depends on nothing of the server.',
      severity: 'error',
      from: { path: '^src/shared/' },
      to: { path: '^src/', pathNot: '^src/shared/' },
    },
    {
      name: 'platform-imports-no-module',
      comment: 'Infrastructure (database, pub/sub, HTTP, observability) knows no capability.',
      severity: 'error',
      from: { path: '^src/platform/' },
      to: { path: '^src/', pathNot: '^src/(platform|shared)/' },
    },
    ...modules.map((name) => ({
      name: `module-${name}-imports-only-below`,
      comment: `${name} may use ${below[name].join(', ') || 'no other module'}, the platform and the shared kernel; never the API layer, the adapters or the composition.`,
      severity: 'error',
      from: { path: `^src/modules/${name}/` },
      to: { path: '^src/', pathNot: `^src/(platform|shared)/|^src/modules/(${[name, ...below[name]].join('|')})/` },
    })),
    {
      name: 'adapters-use-modules-not-the-api',
      comment: 'The agent runtime and MCP are adapters over module services.',
      severity: 'error',
      from: { path: '^src/(agent|mcp)/' },
      to: { path: `^src/api/|${composition}` },
    },
    {
      name: 'agent-and-mcp-apart',
      comment: 'MCP serves the recall tools the agent runtime defines only through the modules they wrap.',
      severity: 'error',
      from: { path: '^src/agent/' },
      to: { path: '^src/mcp/' },
    },
    {
      name: 'api-composes-modules',
      comment: 'The GraphQL composition lists the modules; it uses no adapter and no composition root.',
      severity: 'error',
      from: { path: '^src/api/' },
      to: { path: `^src/(agent|mcp)/|${composition}` },
    },
    {
      name: 'rules-are-plain-typescript',
      comment: "A module's rules (files without a role suffix) use no GraphQL, database or HTTP, and no service, repository or resolver.",
      severity: 'error',
      from: { path: '^src/modules/.+/[a-z-]+\\.ts$', pathNot: '\\.(service|repository|entity|resolver|type|input|route|stream|context|topics|module|enums|tool)\\.ts$|/(graphql|storage|steps)/|/entities\\.ts$' },
      to: {
        path: '^(src/.+\\.(service|repository|resolver|route)\\.ts|src/platform/(db|http|pubsub)/)|node_modules/(type-graphql|graphql|typeorm|pg|express|ws|graphql-ws)/',
      },
    },
    {
      name: 'services-below-graphql',
      comment: 'Services and repositories return domain values; only the GraphQL layer maps them to API types.',
      severity: 'error',
      from: { path: '\\.(service|repository)\\.ts$' },
      to: { path: '\\.(resolver|type|input)\\.ts$|/graphql/' },
    },
  ],
  options: {
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '__tests__' },
  },
};
