import { randomUUID } from 'node:crypto';
import { toolRefusal, ToolThing } from './tool-access';
import { ContinuationApproval } from '../modules/conversation/sessions';
import { GraphQLSchema } from 'graphql';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { Actor } from '../modules/continuation/continuations';
import { proposalAnswer } from '../modules/continuation/proposals';
import { ErrorCode, OperationFailure } from '../shared/errors';
import { continueSessionTool, continueSessionToolRequest } from '../modules/continuation/continue-session.tool';
import { RUNTIME_TOOLS, RecallServices, RecallTools } from '../agent/tools';
import type { ContinuationService } from '../modules/continuation/continuations.service';
import type { ProposalService } from '../modules/continuation/proposals.service';
import type { Viewer } from '../shared/viewer';
import { RECALL_TOOLS } from '../shared/agent-tools';
import { argumentsCheck } from './arguments';

export interface McpServices extends RecallServices {
  continuations: ContinuationService;
  proposals: ProposalService;
}

type InputSchema = Tool['inputSchema'];

const sessionIdProperty = (description: string) => ({ sessionId: { type: 'string', minLength: 1, description } });

/** How a client names each tool to a person. */
const TITLES: Record<string, string> = {
  create_session: 'Create session',
  append_message: 'Append user message',
  continue_session: 'Continue session',
  search_history: 'Search history',
  read_events: 'Read events',
  read_manifest: 'Read projection manifest',
  walk_lineage: 'Walk lineage',
  read_resource: 'Read resource',
  read_memory: 'Read memory entry',
  read_attachment: 'Read attachment',
};

/**
 * What a tool does to the account, for clients that ask before writing. Nothing is destructive:
 * a continuation leaves the original complete; the recall tools only read.
 */
const READS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const WRITES = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };

/** The session each recall tool reads from, made explicit: an outside agent has no "this session". */
const RECALL_SESSION: Record<string, string> = {
  search_history: 'The session the search starts from.',
  walk_lineage: 'The session whose lineage to walk.',
};

/** A recall tool's definition, as the server's own agent has it, with the session it reads from required where it has one. */
function recallTool(name: string): Tool {
  const definition = RUNTIME_TOOLS.find((tool) => tool.name === name)!;
  const parameters = definition.parameters as InputSchema & { required?: string[] };
  const session = RECALL_SESSION[name];
  return {
    name,
    title: TITLES[name],
    description: definition.description,
    inputSchema: session
      ? {
          ...parameters,
          properties: { ...parameters.properties, ...sessionIdProperty(session) },
          required: [...new Set([...(parameters.required ?? []), 'sessionId'])],
        }
      : parameters,
    annotations: READS,
  };
}

function continueTool(schema: GraphQLSchema): Tool {
  const { function: definition } = continueSessionTool(schema) as { function: { description: string; parameters: InputSchema & { required: string[] } } };
  return {
    name: 'continue_session',
    title: TITLES.continue_session,
    description:
      'Continue a session in a fresh successor, atomically. Returns the successor id and the successor\'s compiled initial context ' +
      '(from its projection manifest): start the new working context from it. In a session whose continuations a person approves ' +
      '(continuationApproval ASK), the call is held as a proposal instead and returns its id with status awaiting_approval: the ' +
      'conversation stays in the session until the person approves (the successor then starts from its context) or rejects it with a note.',
    inputSchema: {
      ...definition.parameters,
      properties: {
        ...sessionIdProperty('The session to continue (the predecessor).'),
        idempotencyKey: { type: 'string', minLength: 1, description: 'Repeating a call with the same key returns the same successor; a new key by default.' },
        initiatingEventId: { type: 'string', description: "The user message that caused the continuation; the predecessor's latest by default." },
        ...definition.parameters.properties,
      },
      required: ['sessionId', ...definition.parameters.required],
    },
    // The same idempotencyKey gives the same successor; without one each call is a new continuation.
    annotations: WRITES,
  };
}

/** The tools, in the order a client lists them. */
export function mcpToolDefinitions(schema: GraphQLSchema): Tool[] {
  return [
    {
      name: 'create_session',
      title: TITLES.create_session,
      description: 'Create a new, empty session (a ROOT of its own lineage). Returns its id.',
      inputSchema: {
        type: 'object',
        properties: {
          title: { type: 'string', description: '1 to 200 characters.' },
          description: { type: 'string', description: 'At most 2,000 characters.' },
        },
        required: ['title'],
        additionalProperties: false,
      },
      annotations: WRITES,
    },
    {
      name: 'append_message',
      title: TITLES.append_message,
      description:
        'Record a user message in a session. Only user messages can be recorded: assistant messages are written by the server\'s own agent runs. ' +
        'A continued session refuses with SESSION_CONTINUED and names its current continuation.',
      inputSchema: {
        type: 'object',
        properties: {
          ...sessionIdProperty('The session to write to.'),
          text: { type: 'string', description: '1 to 100,000 characters, not only white space.' },
          clientMessageId: { type: 'string', description: 'Repeating a call with the same id records the message once.' },
        },
        required: ['sessionId', 'text'],
        additionalProperties: false,
      },
      annotations: WRITES,
    },
    continueTool(schema),
    ...RECALL_TOOLS.map(recallTool),
  ];
}

const text = (value: unknown): CallToolResult => ({ content: [{ type: 'text', text: JSON.stringify(value) }] });

function refused(code: ErrorCode, message: string, extra: Partial<OperationFailure> = {}): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ code, message, ...extra }) }] };
}

const failed = ({ code, message, ...extra }: OperationFailure) => refused(code, message, extra);

/** Runs the tools for one caller, in-process, on the server's services. */
export class McpTools {
  /** The tools, in the order a client lists them. */
  readonly definitions: Tool[];
  /** Each tool's arguments check, compiled when the tool is first called rather than at start. */
  private readonly checks = new Map<string, (args: unknown) => string[]>();
  private readonly recall: RecallTools;

  constructor(
    private readonly services: McpServices,
    private readonly schema: GraphQLSchema,
    private readonly reaches: (viewer: Viewer, thing: ToolThing, id: string) => Promise<boolean>,
  ) {
    this.definitions = mcpToolDefinitions(schema);
    this.recall = new RecallTools(services);
  }

  private argumentsCheck(name: string): ((args: unknown) => string[]) | null {
    const known = this.checks.get(name);
    if (known) return known;
    const tool = this.definitions.find((definition) => definition.name === name);
    if (!tool) return null;
    const check = argumentsCheck(tool.inputSchema);
    this.checks.set(name, check);
    return check;
  }

  /**
   * Runs tool `name`; null when there is none of that name. Arguments that do not fit the tool's
   * input schema, a scope the key lacks, a thing out of a session-limited key's reach, and every
   * expected failure, are tool errors with the API's code.
   */
  async call(viewer: Viewer, name: string, args: Record<string, unknown>): Promise<CallToolResult | null> {
    const check = this.argumentsCheck(name);
    if (!check) return null;
    const problems = check(args);
    if (problems.length) return refused(ErrorCode.INVALID_INPUT, `${name}: ${problems.join(' ')}`);
    const refusal = await toolRefusal(viewer, name, args, this.reaches);
    if (refusal) return refused(ErrorCode[refusal.code], `${name}: ${refusal.message}`);
    switch (name) {
      case 'create_session':
        return this.createSession(viewer, args as { title: string; description?: string });
      case 'append_message':
        return this.appendMessage(viewer, args as { sessionId: string; text: string; clientMessageId?: string });
      case 'continue_session':
        return this.continueSession(viewer, args as { sessionId: string; idempotencyKey?: string; initiatingEventId?: string });
      default:
        return this.recallTool(viewer, name, args);
    }
  }

  private async createSession(viewer: Viewer, { title, description }: { title: string; description?: string }): Promise<CallToolResult> {
    const created = await this.services.sessions.createSession(viewer, { title, description });
    if (!created.ok) return failed(created.error);
    return text({ sessionId: created.value.id, title: created.value.title });
  }

  private async appendMessage(
    viewer: Viewer,
    { sessionId, text: message, clientMessageId }: { sessionId: string; text: string; clientMessageId?: string },
  ): Promise<CallToolResult> {
    const posted = await this.services.transcript.postMessage(viewer, { sessionId, text: message, clientMessageId });
    if (!posted.ok) return failed(posted.error);
    const { event, session } = posted.value;
    return text({ sessionId: session.id, eventId: event.id, seq: event.seq });
  }

  private async continueSession(viewer: Viewer, args: { sessionId: string; idempotencyKey?: string; initiatingEventId?: string }): Promise<CallToolResult> {
    const { sessionId, idempotencyKey = randomUUID(), initiatingEventId = null } = args;
    const request = continueSessionToolRequest(this.schema, args, { sessionId, idempotencyKey, initiatingEventId });
    if (!request.ok) return refused(ErrorCode.INVALID_INPUT, request.problems.join(' '));
    const [session] = await this.services.sessions.sessionsByIds(viewer.accountId, [sessionId]);
    if (session?.continuationApproval === ContinuationApproval.ASK) {
      // The agent's call is not in the transcript: the proposal's note there is its record.
      const proposed = await this.services.proposals.propose(viewer, request.request, { runId: null, toolCallId: `mcp:${idempotencyKey}`, callEvent: null });
      if (!proposed.ok) return failed(proposed.error);
      const { proposal, replayed } = proposed.value;
      return text({ ...proposalAnswer(proposal.id), expiresAt: proposal.expiresAt.toISOString(), replayed });
    }
    const continued = await this.services.continuations.continueSession(viewer, request.request, { actor: Actor.AGENT });
    if (!continued.ok) return failed(continued.error);
    const { edge, successor, replayed } = continued.value;
    const [manifest] = await this.services.lineage.manifestsByEdgeIds(viewer.accountId, [edge.id]);
    if (!manifest) throw new Error(`The manifest of continuation ${edge.id} is missing`);
    return {
      content: [
        { type: 'text', text: JSON.stringify({ successorId: successor.id, edgeId: edge.id, manifestId: manifest.id, replayed, tokenCost: manifest.tokenCost }) },
        // The sections joined by blank lines are the context the successor's model starts from.
        { type: 'text', text: manifest.context.map((section) => section.text).join('\n\n') },
      ],
    };
  }

  private async recallTool(viewer: Viewer, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    // search_history starts from this session and walk_lineage walks it; read_events reads the session it names.
    const readerId = typeof args.sessionId === 'string' ? args.sessionId : '';
    const outcome = await this.recall.run(viewer, { sessionId: readerId, answeringSeq: null }, name, args);
    if (!outcome) throw new Error(`The recall tool ${name} is listed but not run`);
    if (!outcome.error) return { content: [{ type: 'text', text: outcome.content }] };
    const { error } = JSON.parse(outcome.content) as { error: string };
    return refused(outcome.code ?? ErrorCode.INVALID_INPUT, error);
  }
}
