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
import { ModelProvider, ModelProviderError, ModelReply, ModelToolDefinition } from '../agent';
import { RunOutputStream } from '../run-output';
import { RUNTIME_TOOLS, RecallTools } from '../tools';
import { RunCancelled, RunWrites } from './run-writes';
import { ContextSettings, TurnContextLoader, TurnStart } from './turn-context';
import { TurnTools } from './turn-tools';

export interface TurnSettings extends ContextSettings {
  /** Model calls per turn before the run fails for not answering. */
  maxSteps: number;
}

/** Executes claimed runs: a turn of the agent loop, or delegated work in a child session. */
export class TurnRunner {
  private readonly continueSessionTool: ModelToolDefinition;
  private readonly writes: RunWrites;
  private readonly context: TurnContextLoader;
  private readonly tools: TurnTools;

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
    this.continueSessionTool = (continueSessionTool(schema) as { function: ModelToolDefinition }).function;
    this.writes = new RunWrites(dataSource, notifier);
    this.context = new TurnContextLoader(dataSource, attachments, provider, settings);
    this.tools = new TurnTools(this.writes, notifier, continuations, proposals, recall, schema);
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
    const start = await this.context.turnStart(run);
    try {
      await this.steps(run, lease, start, output, signal);
    } catch (error) {
      const produced = await output.finish();
      if (!(signal.reason instanceof RunCancelled)) throw error;
      await this.writes.answer(lease, run, start.session.id, produced);
    }
  }

  /** The agent loop: model calls and their tool calls, until the model answers or the steps run out. */
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
      let reply: ModelReply;
      try {
        reply = await this.provider.complete({ messages, tools, facts: start.facts, signal, onTextDelta });
      } catch (error) {
        if (signal.aborted) throw error;
        if (error instanceof ModelProviderError) return this.writes.fail(lease, error.message);
        throw error;
      }
      // A provider that does not stream gives its text only at the end.
      if (!streamed && reply.text) onTextDelta(reply.text);
      if (reply.toolCalls.length === 0) return this.writes.answer(lease, run, start.session.id, await output.finish());
      messages.push({ role: 'assistant', content: reply.text, toolCalls: reply.toolCalls });
      for (const call of reply.toolCalls) {
        signal.throwIfAborted();
        let outcome;
        if (call.name === 'continue_session' && !delegated) {
          outcome = await this.tools.continueSession(lease, run, start, call);
          if (outcome === 'ENDED') return;
        } else if (call.name === 'delegate' && !delegated) {
          outcome = await this.tools.delegate(lease, start, call);
        } else {
          outcome = await this.tools.recallTool(lease, start, call);
        }
        messages.push({ role: 'tool', toolCallId: call.id, content: outcome.content });
      }
    }
    await this.writes.fail(lease, `The agent called tools ${this.settings.maxSteps} times without answering; retry the run or rephrase.`);
  }
}
