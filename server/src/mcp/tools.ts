import { randomUUID } from 'node:crypto';
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
import { RECALL_TOOLS, isRecallTool } from '../shared/agent-tools';

export interface McpServices extends RecallServices {
  continuations: ContinuationService;
  proposals: ProposalService;
}

type InputSchema = Tool['inputSchema'];

const sessionIdProperty = (description: string) => ({ sessionId: { type: 'string', description } });

/** A recall tool's definition, with the session it reads from made explicit: an outside agent has no "this session". */
function recallTool(name: string): Tool {
  const definition = RUNTIME_TOOLS.find((tool) => tool.name === name)!;
  const parameters = definition.parameters as InputSchema & { required?: string[] };
  if (name !== 'search_history' && name !== 'walk_lineage') return { name, description: definition.description, inputSchema: parameters };
  const description = name === 'search_history' ? 'The session the search starts from.' : 'The session whose lineage to walk.';
  return {
    name,
    description: definition.description,
    inputSchema: {
      ...parameters,
      properties: { ...parameters.properties, ...sessionIdProperty(description) },
      required: [...new Set([...(parameters.required ?? []), 'sessionId'])],
    },
  };
}

function continueTool(schema: GraphQLSchema): Tool {
  const { function: definition } = continueSessionTool(schema) as { function: { description: string; parameters: InputSchema & { required: string[] } } };
  return {
    name: 'continue_session',
    description:
      'Continue a session in a fresh successor, atomically. Returns the successor id and the successor\'s compiled initial context ' +
      '(from its projection manifest): start the new working context from it. In a session whose continuations a person approves ' +
      '(continuationApproval ASK), the call is held as a proposal instead and returns its id with status awaiting_approval: the ' +
      'conversation stays in the session until the person approves (the successor then starts from its context) or rejects it with a note.',
    inputSchema: {
      ...definition.parameters,
      properties: {
        ...sessionIdProperty('The session to continue (the predecessor).'),
        idempotencyKey: { type: 'string', description: 'Repeating a call with the same key returns the same successor; a new key by default.' },
        initiatingEventId: { type: 'string', description: "The user message that caused the continuation; the predecessor's latest by default." },
        ...definition.parameters.properties,
      },
      required: ['sessionId', ...definition.parameters.required],
    },
  };
}

/** The tools, in the order a client lists them. */
export function mcpToolDefinitions(schema: GraphQLSchema): Tool[] {
  return [
    {
      name: 'create_session',
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
    },
    {
      name: 'append_message',
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
  private readonly recall: RecallTools;

  constructor(
    private readonly services: McpServices,
    private readonly schema: GraphQLSchema,
  ) {
    this.recall = new RecallTools(services);
  }

  /** Runs tool `name`; null when there is none of that name. Expected failures are tool errors with the API's code. */
  async call(viewer: Viewer, name: string, args: Record<string, unknown>): Promise<CallToolResult | null> {
    switch (name) {
      case 'create_session':
        return this.createSession(viewer, args);
      case 'append_message':
        return this.appendMessage(viewer, args);
      case 'continue_session':
        return this.continueSession(viewer, args);
      default:
        return isRecallTool(name) ? this.recallTool(viewer, name, args) : null;
    }
  }

  private async createSession(viewer: Viewer, { title, description }: Record<string, unknown>): Promise<CallToolResult> {
    if (typeof title !== 'string' || (description !== undefined && typeof description !== 'string')) {
      return refused(ErrorCode.INVALID_INPUT, 'create_session needs a title (string) and at most a description (string).');
    }
    const created = await this.services.sessions.createSession(viewer, { title, description });
    if (!created.ok) return failed(created.error);
    return text({ sessionId: created.value.id, title: created.value.title });
  }

  private async appendMessage(viewer: Viewer, { sessionId, text: message, clientMessageId }: Record<string, unknown>): Promise<CallToolResult> {
    if (typeof sessionId !== 'string' || typeof message !== 'string' || (clientMessageId !== undefined && typeof clientMessageId !== 'string')) {
      return refused(ErrorCode.INVALID_INPUT, 'append_message needs sessionId and text (strings).');
    }
    const posted = await this.services.transcript.postMessage(viewer, { sessionId, text: message, clientMessageId });
    if (!posted.ok) return failed(posted.error);
    const { event, session } = posted.value;
    return text({ sessionId: session.id, eventId: event.id, seq: event.seq });
  }

  private async continueSession(viewer: Viewer, args: Record<string, unknown>): Promise<CallToolResult> {
    const { sessionId, idempotencyKey = randomUUID(), initiatingEventId = null } = args;
    if (typeof sessionId !== 'string' || typeof idempotencyKey !== 'string' || (initiatingEventId !== null && typeof initiatingEventId !== 'string')) {
      return refused(ErrorCode.INVALID_INPUT, 'continue_session needs sessionId (string); idempotencyKey and initiatingEventId are strings.');
    }
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
    const readerId = typeof args.sessionId === 'string' ? args.sessionId : '';
    const outcome = await this.recall.run(viewer, { sessionId: readerId, answeringSeq: null }, name, args);
    if (!outcome) return refused(ErrorCode.INVALID_INPUT, `There is no tool named ${name}.`);
    if (!outcome.error) return { content: [{ type: 'text', text: outcome.content }] };
    const { error } = JSON.parse(outcome.content) as { error: string };
    return refused(outcome.code ?? ErrorCode.INVALID_INPUT, error);
  }
}
