import { randomUUID } from 'node:crypto';
import { GraphQLSchema } from 'graphql';
import { DataSource, EntityManager, In } from 'typeorm';
import { ModelAttachment, ModelMessage, ModelProvider, ModelProviderError, ModelToolCall, ModelToolDefinition, TurnFacts } from './agent';
import { ContextUsage, contextTokens } from '../modules/conversation/context-usage';
import { Actor } from '../modules/continuation/continuations';
import { agentInstructions, projectedMessages, transcriptMessages } from './model-context';
import { ACTIVE_RUN_STATUSES, RunKind, RunStatus, cancelledDelegation } from '../modules/conversation/runs';
import { SessionKind, SessionStatus, TITLE_MAX_CHARS, ContinuationApproval } from '../modules/conversation/sessions';
import { EventKind, GENESIS_HASH } from '../modules/conversation/transcript';
import { EventEntity } from '../modules/conversation/event.entity';
import { ProjectionManifestEntity } from '../modules/continuation/projection-manifest.entity';
import { RunEntity } from '../modules/conversation/run.entity';
import { SessionEntity } from '../modules/conversation/session.entity';
import { latestPlan } from '../modules/plans/plan.repository';
import { Lease, appendRunOutput, lockLeasedRun, queuedRun, settleRun } from '../modules/conversation/run.repository';
import { EventDraft, appendEvents, lockSession } from '../modules/conversation/transcript.repository';
import { continueSessionTool, continueSessionToolRequest } from '../modules/continuation/continue-session.tool';
import { columnList, entityFromRow } from '../platform/db/rows';
import { ContinuationService } from '../modules/continuation/continuations.service';
import { ProposalService } from '../modules/continuation/approval/proposals.service';
import { ContinuationNotifier } from '../modules/continuation/notifications';
import { Viewer } from '../shared/viewer';
import { RunOutputStream } from './run-output';
import { RUNTIME_TOOLS, RecallTools, ToolOutcome } from './tools';
import { isImageMediaType } from '../modules/attachments/attachments';
import { AttachmentService, attachmentReference } from '../modules/attachments/attachments.service';

export interface TurnSettings {
  /** The model's context window, in tokens of the server's tokenizer. */
  windowTokens: number;
  /** Share of the window from which a continuation is advised. */
  threshold: number;
  /** Model calls per turn before the run fails for not answering. */
  maxSteps: number;
}

/** The run's lease is gone (expired and taken over, or the run was settled elsewhere): stop without writing. */
export class LeaseLost extends Error {
  constructor() {
    super('The run is no longer leased to this worker.');
  }
}

/** The abort reason of a run someone cancelled: its worker records what it produced and stops. */
export class RunCancelled extends Error {
  constructor() {
    super('The run was cancelled.');
  }
}

/** What one turn of a session starts from: the messages for the model and the facts about them. */
interface TurnStart {
  viewer: Viewer;
  session: SessionEntity;
  messages: ModelMessage[];
  facts: TurnFacts;
}

const EARLIER_USER_MESSAGES = 6;
/** Images larger than this are given to a model by reference only (OpenAI takes images of up to 20 MB). */
const MODEL_IMAGE_MAX_BYTES = 20 * 1024 * 1024;
/** Text files larger than this are given to a model by reference only; read_attachment reads their start. */
const MODEL_TEXT_MAX_BYTES = 64 * 1024;

/** Executes claimed runs: a turn of the agent loop, or delegated work in a child session. */
export class TurnRunner {
  private readonly continueSessionTool: ModelToolDefinition;

  constructor(
    private readonly dataSource: DataSource,
    private readonly notifier: ContinuationNotifier,
    private readonly continuations: ContinuationService,
    private readonly proposals: ProposalService,
    private readonly recall: RecallTools,
    private readonly attachments: AttachmentService,
    private readonly provider: ModelProvider,
    private readonly schema: GraphQLSchema,
    private readonly settings: TurnSettings,
  ) {
    this.continueSessionTool = (continueSessionTool(schema) as { function: ModelToolDefinition }).function;
  }

  /**
   * Runs `run` to its end under `lease`, passing its answer on as it is produced. Throws
   * {@link LeaseLost} when another worker has taken it over. When `signal` is aborted with
   * {@link RunCancelled}, what the run produced is recorded as its answer, marked cancelled.
   */
  async execute(run: RunEntity, lease: Lease, signal: AbortSignal): Promise<void> {
    const output = new RunOutputStream(async (offset, text) => {
      if (await appendRunOutput(this.dataSource.manager, lease, text)) this.notifier.runOutputAppended({ runId: run.id, offset, text });
    });
    const start = await this.turnStart(run);
    try {
      await this.steps(run, lease, start, output, signal);
    } catch (error) {
      const produced = await output.finish();
      if (!(signal.reason instanceof RunCancelled)) throw error;
      await this.answer(lease, run, start, produced);
    }
  }

  private async steps(run: RunEntity, lease: Lease, start: TurnStart, output: RunOutputStream, signal: AbortSignal): Promise<void> {
    const delegated = run.kind === RunKind.DELEGATED;
    // Delegated work answers its task; moving or delegating further is for the conversation that owns it.
    const tools = delegated ? RUNTIME_TOOLS.filter((tool) => tool.name !== 'delegate') : [this.continueSessionTool, ...RUNTIME_TOOLS];
    const messages = [...start.messages];
    for (let step = 0; step < this.settings.maxSteps; step += 1) {
      signal.throwIfAborted();
      // The answer is all the text of the turn's model calls; a blank line parts the text of one call from the next.
      let streamed = false;
      const onTextDelta = (delta: string) => {
        if (!streamed && output.text) output.append('\n\n');
        streamed = true;
        output.append(delta);
      };
      let reply;
      try {
        reply = await this.provider.complete({ messages, tools, facts: start.facts, signal, onTextDelta });
      } catch (error) {
        if (signal.aborted) throw error;
        if (error instanceof ModelProviderError) return this.fail(lease, error.message);
        throw error;
      }
      // A provider that does not stream gives its text only at the end.
      if (!streamed && reply.text) onTextDelta(reply.text);
      if (reply.toolCalls.length === 0) return this.answer(lease, run, start, await output.finish());
      messages.push({ role: 'assistant', content: reply.text, toolCalls: reply.toolCalls });
      for (const call of reply.toolCalls) {
        signal.throwIfAborted();
        if (call.name === 'continue_session' && !delegated) {
          const continued = await this.continueSession(lease, run, start, call);
          if (continued === 'ENDED') return;
          messages.push({ role: 'tool', toolCallId: call.id, content: continued.content });
        } else if (call.name === 'delegate' && !delegated) {
          messages.push({ role: 'tool', toolCallId: call.id, content: await this.delegate(lease, start, call) });
        } else {
          const outcome = await this.runTool(start, call);
          await this.record(lease, start.session.id, [toolCallDraft(call), toolResultDraft(call, outcome)]);
          messages.push({ role: 'tool', toolCallId: call.id, content: outcome.content });
        }
      }
    }
    await this.fail(lease, `The agent called tools ${this.settings.maxSteps} times without answering; retry the run or rephrase.`);
  }

  /** The model's context for the run's turn, loaded in O(window): the projection for a successor, the transcript's tail otherwise. */
  private async turnStart(run: RunEntity): Promise<TurnStart> {
    const manager = this.dataSource.manager;
    const sessionId = run.kind === RunKind.DELEGATED ? run.childSessionId! : run.sessionId;
    const [session, account, trigger] = await Promise.all([
      manager.findOneByOrFail(SessionEntity, { id: sessionId }),
      manager.query('SELECT name FROM accounts WHERE id = $1', [run.accountId]) as Promise<{ name: string }[]>,
      run.triggerEventId ? manager.findOneByOrFail(EventEntity, { id: run.triggerEventId }) : Promise.resolve(null),
    ]);
    const viewer: Viewer = { accountId: run.accountId, name: account[0]?.name ?? '', isAdmin: false };
    const throughSeq = trigger?.seq ?? session.eventCount;
    const throughTokens = trigger?.tokenTotal ?? session.tokenCount;
    const [manifest, opening, forkPoint] = await Promise.all([
      session.kind === SessionKind.CONTINUATION ? manager.findOneBy(ProjectionManifestEntity, { successorId: session.id }) : null,
      session.kind === SessionKind.CONTINUATION ? manager.findOneBy(EventEntity, { sessionId: session.id, seq: 2 }) : null,
      session.forkedFromEventId ? manager.findOneBy(EventEntity, { id: session.forkedFromEventId }) : null,
    ]);
    const usage: ContextUsage = {
      tokens: contextTokens({
        kind: session.kind,
        tokensThrough: throughTokens,
        projectedContextTokens: manifest?.tokenCost ?? null,
        openingTokens: opening?.tokenTotal ?? null,
        forkPointTokens: forkPoint?.tokenTotal ?? null,
      }),
      windowTokens: this.settings.windowTokens,
      threshold: this.settings.threshold,
    };
    // A successor's own history starts after its opening; everything before is in its projection.
    const firstOwnSeq = manifest ? 3 : 1;
    const own = await this.tail(manager, session.id, firstOwnSeq, throughSeq, throughTokens - this.settings.windowTokens);
    // A fork's own events come first in the window; its inherited history fills what is left.
    const inherited = forkPoint
      ? await this.tail(manager, forkPoint.sessionId, 1, forkPoint.seq, forkPoint.tokenTotal - (this.settings.windowTokens - throughTokens))
      : [];
    const replayedCids = manifest ? (opening?.attachmentCids ?? []) : [];
    const attached = await this.modelAttachments(viewer, [
      ...replayedCids,
      ...(trigger?.attachmentCids ?? []),
      ...[...inherited, ...own].flatMap((event) => event.attachmentCids),
    ]);
    const messages: ModelMessage[] = [
      { role: 'system', content: agentInstructions(usage, session.title) },
      ...(manifest ? projectedMessages(manifest.context, replayedCids, attached) : []),
      ...transcriptMessages([...inherited, ...own], attached),
    ];
    // The range a handoff would cite: the session's first event through the one before the message.
    const citable = trigger && trigger.seq > 1 ? [1, trigger.seq - 1] : [];
    const [earlier, plan, pending, bounds] = await Promise.all([
      manager.query(
        `SELECT text FROM events WHERE session_id = $1 AND kind = 'USER_MESSAGE' AND seq < $2 ORDER BY seq DESC LIMIT $3`,
        [session.id, throughSeq, EARLIER_USER_MESSAGES],
      ) as Promise<{ text: string }[]>,
      latestPlan(manager, session.id),
      manager.find(RunEntity, { where: { sessionId: session.id, kind: RunKind.DELEGATED, status: In(ACTIVE_RUN_STATUSES) } }),
      citable.length ? manager.find(EventEntity, { where: { sessionId: session.id, seq: In(citable) }, order: { seq: 'ASC' } }) : [],
    ]);
    const facts: TurnFacts = {
      sessionId: session.id,
      sessionTitle: session.title,
      sessionKind: session.kind,
      userMessage: trigger
        ? {
            id: trigger.id,
            seq: trigger.seq,
            text: trigger.text ?? '',
            replayed: trigger.replayOfId !== null,
            attachmentNames: trigger.attachmentCids.flatMap((cid) => attached.get(cid)?.name ?? []),
          }
        : null,
      earlierUserMessages: earlier.map((row) => row.text).reverse(),
      citableRange: bounds.length ? { fromEventId: bounds[0].id, toEventId: bounds[bounds.length - 1].id } : null,
      contextUsage: usage,
      openPlan: plan && !plan.closed ? { revision: plan.revision, steps: plan.steps.map(({ title, status }) => ({ title, status })) } : null,
      pendingRunIds: pending.map((pendingRun) => pendingRun.id),
      delegatedTask: run.kind === RunKind.DELEGATED ? (trigger?.text ?? '') : null,
      rejectedContinuation: rejectedContinuation(trigger),
    };
    return { viewer, session, messages, facts };
  }

  /**
   * The attachments a turn's messages link, by cid: references always; for a provider that reads
   * them, an image's bytes and a text file's content, each up to its limit.
   */
  private async modelAttachments(viewer: Viewer, cids: string[]): Promise<Map<string, ModelAttachment>> {
    const found = (await this.attachments.attachmentsByCids(viewer.accountId, [...new Set(cids)])).filter((attachment) => attachment !== null);
    const loaded = await Promise.all(
      found.map(async (attachment): Promise<ModelAttachment> => {
        const reference = attachmentReference(attachment);
        if (!this.provider.readsAttachments) return reference;
        if (isImageMediaType(attachment.mediaType)) {
          const bytes = await this.attachments.bytes(attachment, MODEL_IMAGE_MAX_BYTES);
          return bytes ? { ...reference, imageBase64: bytes.toString('base64') } : reference;
        }
        const text = await this.attachments.text(attachment, MODEL_TEXT_MAX_BYTES);
        return text === null ? reference : { ...reference, text };
      }),
    );
    return new Map(loaded.map((attachment) => [attachment.cid, attachment]));
  }

  /** Events `fromSeq..throughSeq` of a session, leaving out the oldest ones whose running total is at or below `afterTokens`. */
  private async tail(manager: EntityManager, sessionId: string, fromSeq: number, throughSeq: number, afterTokens: number): Promise<EventEntity[]> {
    const rows: Record<string, unknown>[] = await manager.query(
      `SELECT ${columnList(manager, EventEntity)} FROM events WHERE session_id = $1 AND seq BETWEEN $2 AND $3 AND token_total > $4 ORDER BY seq`,
      [sessionId, fromSeq, throughSeq, afterTokens],
    );
    return rows.map((row) => entityFromRow(manager, EventEntity, row));
  }

  private async runTool(start: TurnStart, call: ModelToolCall): Promise<ToolOutcome> {
    const args = parseArguments(call.arguments);
    if (!args) return { content: JSON.stringify({ error: 'The arguments are not a JSON object.' }), error: true };
    const reader = { sessionId: start.session.id, answeringSeq: start.facts.userMessage?.seq ?? null };
    const outcome = await this.recall.run(start.viewer, reader, call.name, args);
    return outcome ?? { content: JSON.stringify({ error: `There is no tool named ${call.name}.` }), error: true };
  }

  /**
   * Executes `continue_session` with the tool call's id as the idempotency key: a replayed call
   * gets the successor created for it. Success ends this turn with no answer here; the successor's
   * own run answers. A refusal goes back to the model, which may answer here instead. In an ASK
   * session the call becomes a proposal for a person to decide, which also ends the turn.
   */
  private async continueSession(lease: Lease, run: RunEntity, start: TurnStart, call: ModelToolCall): Promise<ToolOutcome | 'ENDED'> {
    const args = parseArguments(call.arguments);
    const parsed = args
      ? continueSessionToolRequest(this.schema, args, {
          sessionId: start.session.id,
          idempotencyKey: call.id,
          initiatingEventId: run.triggerEventId,
        })
      : { ok: false as const, problems: ['The arguments are not a JSON object.'] };
    let refusal: string;
    if (parsed.ok) {
      await this.assertLease(lease);
      const continued =
        start.session.continuationApproval === ContinuationApproval.ASK
          ? await this.proposals.propose(start.viewer, parsed.request, { runId: run.id, toolCallId: call.id, callEvent: toolCallDraft(call) })
          : await this.continuations.continueSession(start.viewer, parsed.request, { actor: Actor.AGENT, callerRunId: run.id });
      if (continued.ok) {
        await this.settle(lease, RunStatus.SUCCEEDED, null);
        return 'ENDED';
      }
      refusal = `${continued.error.code}: ${continued.error.message}${continued.error.details.map((detail) => ` ${detail.path.join('.')}: ${detail.message}`).join(';')}`;
    } else {
      refusal = `INVALID_INPUT: ${parsed.problems.join('; ')}`;
    }
    const outcome = { content: JSON.stringify({ error: refusal }), error: true };
    await this.record(lease, start.session.id, [toolCallDraft(call), toolResultDraft(call, outcome)]);
    return outcome;
  }

  /** Starts delegated work: the call recorded here, a CHILD session holding the task, and its DELEGATED run, in one transaction. */
  private async delegate(lease: Lease, start: TurnStart, call: ModelToolCall): Promise<string> {
    const args = parseArguments(call.arguments);
    const task = typeof args?.task === 'string' ? args.task.trim() : '';
    if (!task) {
      const outcome = { content: JSON.stringify({ error: 'delegate needs a task.' }), error: true };
      await this.record(lease, start.session.id, [toolCallDraft(call), toolResultDraft(call, outcome)]);
      return outcome.content;
    }
    const title = typeof args?.title === 'string' && args.title.trim() ? args.title.trim() : `Delegated: ${task}`;
    const published: { events: EventEntity[]; runs: RunEntity[] } = { events: [], runs: [] };
    const result = await this.writeForRun(lease, start.session.id, async (manager, session) => {
      const now = new Date();
      const childId = randomUUID();
      const child = manager.create(SessionEntity, {
        id: childId,
        accountId: session.accountId,
        kind: SessionKind.CHILD,
        status: SessionStatus.ACTIVE,
        title: title.length > TITLE_MAX_CHARS ? `${title.slice(0, TITLE_MAX_CHARS - 1)}…` : title,
        description: null,
        createdAt: now,
        originId: childId,
        lineageDepth: 0,
        continuationStreak: 0,
        parentId: session.id,
        forkedFromEventId: null,
        eventCount: 0,
        tokenCount: 0,
        lastEventHash: GENESIS_HASH,
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
    return JSON.stringify({ status: 'started', ...result });
  }

  /**
   * The turn's answer, appended and the run settled in one transaction; a run cancelled meanwhile
   * stays CANCELLED and its answer is marked `cancelled` (nothing is appended when it produced
   * nothing). Delegated work answers in its child session and reports the answer, as the result
   * of the call that started it, to the session the run reports to now: the successor, when the
   * run was transferred.
   */
  private async answer(lease: Lease, run: RunEntity, start: TurnStart, text: string): Promise<void> {
    const answerDrafts = (cancelled: boolean): EventDraft[] =>
      cancelled && !text ? [] : [{ kind: EventKind.ASSISTANT_MESSAGE, text, ...(cancelled && { data: { cancelled: true } }) }];
    const events: EventEntity[] = [];
    const settled = await this.dataSource.transaction(async (manager) => {
      if (run.kind !== RunKind.DELEGATED) {
        return this.lockedWrite(manager, lease, () => start.session.id, async (session, current) => {
          events.push(...(await appendEvents(manager, session, answerDrafts(current.status === RunStatus.CANCELLED))));
          return settleRun(manager, current, RunStatus.SUCCEEDED, null, text);
        });
      }
      const child = await lockSession(manager, run.accountId, start.session.id);
      return this.lockedWrite(manager, lease, (current) => current.sessionId, async (session, current) => {
        const cancelled = current.status === RunStatus.CANCELLED;
        events.push(...(await appendEvents(manager, child!, answerDrafts(cancelled))));
        const result = cancelled ? cancelledDelegation(text) : text;
        const data = { name: 'delegate', runId: current.id, childSessionId: child!.id, ...(cancelled && { cancelled: true }) };
        events.push(...(await appendEvents(manager, session, [{ kind: EventKind.TOOL_RESULT, text: result, toolCallId: current.toolCallId, data }])));
        return settleRun(manager, current, RunStatus.SUCCEEDED, null, text);
      });
    });
    this.notifier.eventsAppended(events);
    this.notifier.runsChanged([settled]);
  }

  private async fail(lease: Lease, error: string): Promise<void> {
    await this.settle(lease, RunStatus.FAILED, error);
  }

  private async settle(lease: Lease, status: typeof RunStatus.SUCCEEDED | typeof RunStatus.FAILED, error: string | null): Promise<void> {
    const settled = await this.dataSource.transaction(async (manager) => {
      const current = await lockLeasedRun(manager, lease);
      if (!current) throw new LeaseLost();
      return settleRun(manager, current, status, error);
    });
    this.notifier.runsChanged([settled]);
  }

  private async assertLease(lease: Lease): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      if (!(await lockLeasedRun(manager, lease))) throw new LeaseLost();
    });
  }

  /** Appends to a session for the run. */
  private async record(lease: Lease, sessionId: string, drafts: EventDraft[]): Promise<void> {
    const events = await this.writeForRun(lease, sessionId, (manager, session) => appendEvents(manager, session, drafts));
    this.notifier.eventsAppended(events);
  }

  private writeForRun<T>(
    lease: Lease,
    sessionId: string,
    write: (manager: EntityManager, session: SessionEntity, run: RunEntity) => Promise<T>,
  ): Promise<T> {
    return this.dataSource.transaction((manager) => this.lockedWrite(manager, lease, () => sessionId, (session, run) => write(manager, session, run)));
  }

  /**
   * Locks the session the write goes to, then the leased run (sessions before runs, the order a
   * continuation takes too, so the two cannot deadlock), and checks that the session still takes
   * writes. Throws {@link LeaseLost} when the lease is gone.
   */
  private async lockedWrite<T>(
    manager: EntityManager,
    lease: Lease,
    target: (run: RunEntity) => string,
    write: (session: SessionEntity, run: RunEntity) => Promise<T>,
  ): Promise<T> {
    const peek = await manager.findOneBy(RunEntity, { id: lease.runId });
    if (!peek) throw new LeaseLost();
    const session = await lockSession(manager, peek.accountId, target(peek));
    const run = await lockLeasedRun(manager, lease);
    if (!run) throw new LeaseLost();
    if (!session || target(run) !== session.id) throw new Error('The run moved to another session while it was being written.');
    if (session.status !== SessionStatus.ACTIVE) throw new Error(`Session ${session.id} is ${session.status} and takes no more writes.`);
    return write(session, run);
  }
}

/** The rejection a turn answers, when its trigger is the runtime's note of one. */
function rejectedContinuation(trigger: EventEntity | null): TurnFacts['rejectedContinuation'] {
  const data = trigger?.kind === EventKind.SYSTEM ? (trigger.data as { role?: string; title?: string; note?: string | null } | null) : null;
  return data?.role === 'continuation_rejected' ? { title: data.title ?? '', note: data.note ?? null } : null;
}

function parseArguments(raw: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(raw || '{}');
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function toolCallDraft(call: ModelToolCall): EventDraft {
  return { kind: EventKind.TOOL_CALL, text: `${call.name}(${call.arguments})`, toolCallId: call.id, data: { name: call.name, arguments: call.arguments } };
}

function toolResultDraft(call: ModelToolCall, outcome: ToolOutcome): EventDraft {
  return { kind: EventKind.TOOL_RESULT, text: outcome.content, toolCallId: call.id, data: { name: call.name, error: outcome.error } };
}
