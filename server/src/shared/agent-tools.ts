/**
 * The one list of tools an agent of this server may call, in the order a successor's identity
 * lists them. The agent runtime defines each (agent/tools.ts, typed by this list), MCP serves the
 * recall tools, and a continuation may pin any of them.
 */
export const AGENT_TOOLS = ['continue_session', 'read_events', 'search_history', 'read_manifest', 'read_resource', 'read_memory', 'read_attachment', 'walk_lineage', 'delegate'] as const;
export type AgentToolName = (typeof AGENT_TOOLS)[number];

/** The tools that read exact history and state and write nothing. */
export const RECALL_TOOLS = AGENT_TOOLS.filter((name): name is Exclude<AgentToolName, 'continue_session' | 'delegate'> => name !== 'continue_session' && name !== 'delegate');
export type RecallToolName = (typeof RECALL_TOOLS)[number];

export function isAgentTool(name: string): name is AgentToolName {
  return (AGENT_TOOLS as readonly string[]).includes(name);
}

export function isRecallTool(name: string): name is RecallToolName {
  return (RECALL_TOOLS as readonly string[]).includes(name);
}
