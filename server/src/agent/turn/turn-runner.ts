import { DataSource } from 'typeorm';
import { GraphQLSchema } from 'graphql';
import type { AttachmentService } from '../../modules/attachments/attachments.service';
import { continueSessionTool } from '../../modules/continuation/continue-session.tool';
import type { ContinuationService } from '../../modules/continuation/continuations.service';
import type { ProposalService } from '../../modules/continuation/proposals.service';
import type { ContinuationNotifier } from '../../modules/continuation/notifications';
import { RunKind } from '../../modules/conversation/runs';
import { RunEntity } from '../../modules/conversation/run.entity';
import { Lease, appendRunOutput } from '../../modules/conversation/run.repository';
import { ModelContextExceeded, ModelMessage, ModelProvider, ModelProviderError, ModelReply, ModelToolDefinition } from '../agent';
import { logger } from '../../platform/observability/logger';
import { RunOutputStream } from '../run-output';
import { RUNTIME_TOOLS, RecallTools } from '../tools';
import { RunCancelled, RunWrites } from './run-writes';
import { toolDefinitionTokens } from './context-budget';
import { HeadStart } from './head-start';
import { PressureContinuation, PressureOutcome } from './pressure-continuation';
import { ContextSettings, KnownTurn, NextTurn, TurnContextLoader, TurnStart } from './turn-context';
import { TurnTools } from './turn-tools';

export interface TurnSettings extends ContextSettings {
  /** Model calls per turn before the run fails for not answering. */
  maxSteps: number;
}

export interface ExecuteOptions {
  /** What the worker already holds of the run's turn (a successor it wrote). */
  known?: KnownTurn;
  /** The turn's first model call, begun while the continuation that wrote the run committed. */
  headStart?: HeadStart<TurnStart>;
  /** The worker's lease length: given, a successor the turn writes at the threshold is leased to the same worker and returned to start next. */
  leaseMs?: number;
}

/** How a turn was begun: by a worker that may start a successor itself, with its first call under way. */
interface BegunTurn {
  leaseMs: number | null;
  headStart: HeadStart<TurnStart> | null;
}

/** Executes claimed runs: a turn of the agent loop, or delegated work in a child session. */
export class TurnRunner {
  private readonly conversationTools: ModelToolDefinition[];
  private readonly delegatedTools: ModelToolDefinition[];
  private readonly writes: RunWrites;
  private readonly context: TurnContextLoader;
  private readonly tools: TurnTools;
  private readonly pressure: PressureContinuation;
  /** The context length a provider stated when it refused a request, when it is below the configured window. */
  private statedWindow: number | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly notifier: ContinuationNotifier,
    continuations: ContinuationService,
    proposals: ProposalService,
    recall: RecallTools,
    attachments: AttachmentService,
    private readonly provider: ModelProvider,
    schema: GraphQLSchema,
    private readonly settings: TurnSettings,
  ) {
    const continueSession = (continueSessionTool(schema) as { function: ModelToolDefinition }).function;
    this.conversationTools = [continueSession, ...RUNTIME_TOOLS];
    // Delegated work answers its task; moving or delegating further is for the conversation that owns it.
    this.delegatedTools = RUNTIME_TOOLS.filter((tool) => tool.name !== 'delegate');
    this.writes = new RunWrites(dataSource, notifier);
    // The tools never change: counted once, for every request of this process.
    this.context = new TurnContextLoader(dataSource, attachments, provider, { ...settings, toolTokens: toolDefinitionTokens(this.conversationTools) });
    this.tools = new TurnTools(this.writes, notifier, continuations, proposals, recall, schema);
    this.pressure = new PressureContinuation(dataSource, this.writes, continuations, proposals, schema, provider, continueSession, settings.threshold, (error) =>
      this.learnWindow(error),
    );
  }

  /** The window requests are fitted to: the configured one, or the smaller length the provider stated. */
  private get windowTokens(): number {
    return Math.min(this.settings.windowTokens, this.statedWindow ?? Infinity);
  }

  /**
   * A refusal for the context length: the length the provider stated becomes the window from now
   * on (a smaller one when it stated none), with a warning naming the configured window.
   */
  private learnWindow(error: ModelContextExceeded): void {
    const configured = this.settings.windowTokens;
    const stated = error.limit !== null && error.limit < this.windowTokens ? error.limit : Math.floor(this.windowTokens * 0.75);
    this.statedWindow = stated;
    logger.warn(
      { configuredWindow: configured, statedWindow: error.limit, fittedTo: stated, err: error },
      `The model refused a request for its context length, although it was fitted to MODEL_CONTEXT_WINDOW=${configured}: requests are fitted to ${stated} tokens from now on. Set MODEL_CONTEXT_WINDOW to the model's real context length.`,
    );
  }

  /**
   * Runs `run` to its end under `lease`, passing its answer on as it is produced. Throws
   * {@link LeaseLost} when another worker has taken it over. When `signal` is aborted with
   * {@link RunCancelled}, what the run produced is recorded as its answer, marked cancelled.
   */
  async execute(run: RunEntity, lease: Lease, signal: AbortSignal, options: ExecuteOptions = {}): Promise<NextTurn | null> {
    const output = new RunOutputStream(async (offset, text) => {
      if (await appendRunOutput(this.dataSource.manager, lease, text)) this.notifier.runOutputAppended({ runId: run.id, offset, text });
    });
    const { headStart = null } = options;
    try {
      const start = headStart ? await headStart.start() : await this.context.turnStart(run, this.windowTokens, options.known ?? null);
      try {
        return await this.steps(run, lease, start, output, signal, { leaseMs: options.leaseMs ?? null, headStart });
      } catch (error) {
        const produced = await output.finish();
        if (!(signal.reason instanceof RunCancelled)) throw error;
        await this.writes.answer(lease, run, start.session.id, produced);
        return null;
      }
    } finally {
      // Taken over and ended by now, or never reached: either way it is not to go on.
      headStart?.cancel();
    }
  }

  /** Begins a successor's turn and its first model call, for a continuation about to commit. */
  private headStart(next: NextTurn): HeadStart<TurnStart> {
    return new HeadStart(async (signal, onTextDelta) => {
      const start = await this.context.turnStart(next.run, this.windowTokens, next.known);
      const request = { messages: start.messages, tools: this.conversationTools, facts: start.facts, signal, onTextDelta, maxOutputTokens: start.reserveTokens };
      return { start, reply: this.provider.complete(request) };
    });
  }

  /**
   * The agent loop: model calls and their tool calls, until the model answers or the steps run
   * out. A turn that starts past the threshold continues first when the model would not; a request
   * refused for the context length is fitted again to the length the provider stated and retried once.
   */
  private async steps(run: RunEntity, lease: Lease, initial: TurnStart, output: RunOutputStream, signal: AbortSignal, begun: BegunTurn): Promise<NextTurn | null> {
    const { leaseMs } = begun;
    let { headStart } = begun;
    const delegated = run.kind === RunKind.DELEGATED;
    const tools = delegated ? this.delegatedTools : this.conversationTools;
    let start = initial;
    let pressure = await this.continuedAtThreshold(run, lease, start, signal, leaseMs);
    if (pressure.outcome !== 'ANSWER_HERE') return pressure.next;
    const messages: ModelMessage[] = [...start.messages];
    let refitted = false;
    for (let step = 0; step < this.settings.maxSteps; step += 1) {
      signal.throwIfAborted();
      // The answer is all the text of the turn's model calls; a blank line parts the text of one call from the next.
      let streamed = false;
      const onTextDelta = (delta: string) => {
        if (!streamed && output.text) output.append('\n\n');
        streamed = true;
        output.append(delta);
      };
      let reply: ModelReply;
      try {
        const call = headStart ? headStart.takeOver(signal, onTextDelta) : this.provider.complete({ messages, tools, facts: start.facts, signal, onTextDelta, maxOutputTokens: start.reserveTokens });
        headStart = null;
        reply = await call;
      } catch (error) {
        if (signal.aborted) throw error;
        if (error instanceof ModelContextExceeded && !refitted && !streamed) {
          refitted = true;
          this.learnWindow(error);
          // This turn's own calls so far stay; the context before them is fitted again.
          const turnMessages = messages.slice(start.messages.length);
          start = await this.context.turnStart(run, this.windowTokens);
          pressure = await this.continuedAtThreshold(run, lease, start, signal, leaseMs);
          if (pressure.outcome !== 'ANSWER_HERE') return pressure.next;
          messages.splice(0, messages.length, ...start.messages, ...turnMessages);
          step -= 1;
          continue;
        }
        if (error instanceof ModelProviderError) return this.ended(this.writes.fail(lease, error.message));
        throw error;
      }
      // A provider that does not stream gives its text only at the end.
      if (!streamed && reply.text) onTextDelta(reply.text);
      if (reply.toolCalls.length === 0) return this.ended(this.writes.answer(lease, run, start.session.id, await output.finish()));
      messages.push({ role: 'assistant', content: reply.text, toolCalls: reply.toolCalls });
      for (const call of reply.toolCalls) {
        signal.throwIfAborted();
        let outcome;
        if (call.name === 'continue_session' && !delegated) {
          // The built-in agent reads no window; a model's successor must fit its own.
          outcome = await this.tools.continueSession(lease, run, start, call, this.provider.continuesAtThreshold ? null : this.pressure.largestBudget(start));
          if (outcome === 'ENDED') return null;
        } else if (call.name === 'delegate' && !delegated) {
          outcome = await this.tools.delegate(lease, start, call);
        } else {
          outcome = await this.tools.recallTool(lease, start, call);
        }
        messages.push({ role: 'tool', toolCallId: call.id, content: outcome.content });
      }
    }
    await this.writes.fail(lease, `The agent called tools ${this.settings.maxSteps} times without answering; retry the run or rephrase.`);
    return null;
  }

  private async ended(write: Promise<void>): Promise<null> {
    await write;
    return null;
  }

  /** The runtime's continuation, when the turn starts past the threshold: ANSWER_HERE when the turn goes on. */
  private async continuedAtThreshold(run: RunEntity, lease: Lease, start: TurnStart, signal: AbortSignal, leaseMs: number | null): Promise<PressureOutcome> {
    if (!(await this.pressure.due(run, start))) return { outcome: 'ANSWER_HERE', next: null };
    return this.pressure.continueAtThreshold(lease, run, start, signal, leaseMs, (next) => this.headStart(next));
  }
}
