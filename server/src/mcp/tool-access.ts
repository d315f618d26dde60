import { ApiKeyScope, grants, LIMITED_KEY_MESSAGE, missingScopeMessage } from '../shared/access';
import type { Viewer } from '../shared/viewer';

/** The things a tool's argument can name, each of one session. */
export type ToolThing = 'session' | 'manifest';

/**
 * What a tool asks of a key: its scope, and for a session-limited key either nothing (`none`),
 * refusal (`account`: account-wide data), or that the thing its argument names lies in reach.
 */
interface ToolAccess {
  scope: ApiKeyScope;
  sessions: 'none' | 'account' | { argument: string; thing: ToolThing };
}

const { READ, WRITE } = ApiKeyScope;
const session = { argument: 'sessionId', thing: 'session' } as const;

/** Every MCP tool, with the scope of what it does; a tool missing here needs ADMIN. */
export const TOOL_ACCESS: Record<string, ToolAccess> = {
  create_session: { scope: WRITE, sessions: 'account' },
  append_message: { scope: WRITE, sessions: session },
  continue_session: { scope: WRITE, sessions: session },
  search_history: { scope: READ, sessions: session },
  read_events: { scope: READ, sessions: session },
  read_manifest: { scope: READ, sessions: { argument: 'manifestId', thing: 'manifest' } },
  walk_lineage: { scope: READ, sessions: session },
  read_resource: { scope: READ, sessions: 'account' },
  read_memory: { scope: READ, sessions: 'account' },
  read_attachment: { scope: READ, sessions: 'none' },
};

export type ToolRefusal = { code: 'FORBIDDEN' | 'NOT_FOUND'; message: string };

/**
 * Why the viewer may not call the tool with these arguments, or null. `reaches` answers whether a
 * session-limited key reaches a thing.
 */
export async function toolRefusal(
  viewer: Viewer,
  name: string,
  args: Record<string, unknown>,
  reaches: (viewer: Viewer, thing: ToolThing, id: string) => Promise<boolean>,
): Promise<ToolRefusal | null> {
  const access = TOOL_ACCESS[name] ?? { scope: ApiKeyScope.ADMIN, sessions: 'account' };
  if (!grants(viewer.scopes, access.scope)) return { code: 'FORBIDDEN', message: missingScopeMessage(access.scope) };
  if (!viewer.reach || access.sessions === 'none') return null;
  // Searching the whole account would reach past the key's sessions.
  if (access.sessions === 'account' || args.scope === 'ACCOUNT') return { code: 'FORBIDDEN', message: LIMITED_KEY_MESSAGE };
  const named = args[access.sessions.argument];
  if (typeof named === 'string' && (await reaches(viewer, access.sessions.thing, named))) return null;
  return { code: 'NOT_FOUND', message: `No such ${access.sessions.thing}.` };
}
