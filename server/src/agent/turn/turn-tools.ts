import { GraphQLSchema } from 'graphql';
import { Actor } from '../../modules/continuation/continuations';
import { continueSessionToolRequest } from '../../modules/continuation/continue-session.tool';
import type { ContinuationService } from '../../modules/continuation/continuations.service';
import type { ProposalService } from '../../modules/continuation/proposals.service';
import { RunKind } from '../../modules/conversation/runs';
import { ContinuationApproval } from '../../modules/conversation/sessions';
import { EventKind } from '../../modules/conversation/transcript';
import { EventEntity } from '../../modules/conversation/event.entity';
import { RunEntity } from '../../modules/conversation/run.entity';
import { SessionEntity } from '../../modules/conversation/session.entity';
import { childSession, sessionTitle } from '../../modules/conversation/session-rows';
import { Lease, queuedRun } from '../../modules/conversation/run.repository';
import { appendEvents } from '../../modules/conversation/transcript.repository';
import type { ConversationNotifier } from '../../modules/conversation/notifications';
import type { ModelToolCall } from '../agent';
import type { RecallTools, ToolOutcome } from '../tools';
import type { RunWrites } from './run-writes';
import { parseArguments, toolCallDraft, toolError, toolResultDraft } from './tool-calls';
import type { TurnStart } from './turn-context';

/** What the turn's tool calls do: recall, continue the session, delegate work. */
export class TurnTools {
  constructor(
    private readonly writes: RunWrites,
    private readonly notifier: ConversationNotifier,
    private readonly continuations: ContinuationService,
    private readonly proposals: ProposalService,
    private readonly recall: RecallTools,
    private readonly schema: GraphQLSchema,
  ) {}

  /** A recall tool's call, recorded in the transcript with its result. */
  async recallTool(lease: Lease, start: TurnStart, call: ModelToolCall): Promise<ToolOutcome> {
    const args = parseArguments(call.arguments);
    const reader = { sessionId: start.session.id, answeringSeq: start.facts.userMessage?.seq ?? null };
    const outcome = args
      ? ((await this.recall.run(start.viewer, reader, call.name, args)) ?? toolError(`There is no tool named ${call.name}.`))
      : toolError('The arguments are not a JSON object.');
    await this.writes.record(lease, start.session.id, [toolCallDraft(call), toolResultDraft(call, outcome)]);
    return outcome;
  }

  /**
   * Executes `continue_session` with the tool call's id as the idempotency key: a replayed call
   * gets the successor created for it. Success ends this turn with no answer here; the successor's
   * own run answers. A refusal goes back to the model, which may answer here instead. In an ASK
   * session the call becomes a proposal for a person to decide, which also ends the turn. The
   * successor's budget is the default, or `budgetCap` when the default would not fit the model's window.
   */
  async continueSession(lease: Lease, run: RunEntity, start: TurnStart, call: ModelToolCall, budgetCap: number | null): Promise<ToolOutcome | 'ENDED'> {
    const args = parseArguments(call.arguments);
    const parsed = args
      ? continueSessionToolRequest(this.schema, args, { sessionId: start.session.id, idempotencyKey: call.id, initiatingEventId: run.triggerEventId })
      : { ok: false as const, problems: ['The arguments are not a JSON object.'] };
    if (parsed.ok && budgetCap !== null && budgetCap < this.continuations.defaultTokenBudget) parsed.request.tokenBudget = budgetCap;
    let refusal: string;
    if (parsed.ok) {
      const asking = start.session.continuationApproval === ContinuationApproval.ASK;
      if (asking) await this.writes.assertLease(lease);
      const continued = asking
        ? await this.proposals.propose(start.viewer, parsed.request, { runId: run.id, toolCallId: call.id, callEvent: toolCallDraft(call) })
        : await this.continuations.continueSession(start.viewer, parsed.request, { actor: Actor.AGENT, callerRunId: run.id, settles: lease });
      if (continued.ok) {
        // A continuation settled the run in its own transaction, under its lease, unless it
        // replayed one written before (the run retried); a proposal leaves it to settle here.
        if (asking || continued.value.replayed) await this.writes.succeedElsewhere(lease);
        return 'ENDED';
      }
      refusal = `${continued.error.code}: ${continued.error.message}${continued.error.details.map((detail) => ` ${detail.path.join('.')}: ${detail.message}`).join(';')}`;
    } else {
      refusal = `INVALID_INPUT: ${parsed.problems.join('; ')}`;
    }
    const outcome = toolError(refusal);
    await this.writes.record(lease, start.session.id, [toolCallDraft(call), toolResultDraft(call, outcome)]);
    return outcome;
  }

  /** Starts delegated work: the call recorded here, a CHILD session holding the task, and its DELEGATED run, in one transaction. */
  async delegate(lease: Lease, start: TurnStart, call: ModelToolCall): Promise<ToolOutcome> {
    const args = parseArguments(call.arguments);
    const task = typeof args?.task === 'string' ? args.task.trim() : '';
    if (!task) {
      const outcome = toolError('delegate needs a task.');
      await this.writes.record(lease, start.session.id, [toolCallDraft(call), toolResultDraft(call, outcome)]);
      return outcome;
    }
    const title = typeof args?.title === 'string' && args.title.trim() ? args.title : `Delegated: ${task}`;
    const published: { events: EventEntity[]; runs: RunEntity[] } = { events: [], runs: [] };
    const result = await this.writes.writeForRun(lease, start.session.id, async (manager, session) => {
      const now = new Date();
      const child = childSession({
        accountId: session.accountId,
        title: sessionTitle(title),
        continuationApproval: session.continuationApproval,
        createdAt: now,
        parentId: session.id,
      });
      await manager.insert(SessionEntity, child);
      const [taskEvent] = await appendEvents(manager, child, [{ kind: EventKind.USER_MESSAGE, text: task }]);
      const callEvents = await appendEvents(manager, session, [toolCallDraft(call)]);
      const delegatedRun = queuedRun(
        { accountId: session.accountId, sessionId: session.id, kind: RunKind.DELEGATED, triggerEventId: taskEvent.id, childSessionId: child.id, toolCallId: call.id },
        now,
      );
      await manager.insert(RunEntity, delegatedRun);
      published.events.push(taskEvent, ...callEvents);
      published.runs.push(delegatedRun);
      return { runId: delegatedRun.id, childSessionId: child.id };
    });
    this.notifier.eventsAppended(published.events);
    this.notifier.runsChanged(published.runs);
    return { content: JSON.stringify({ status: 'started', ...result }), error: false };
  }
}
