import { GraphQLSchema } from 'graphql';
import { DataSource, In } from 'typeorm';
import { ContinuationProposalEntity } from '../../modules/continuation/continuation-proposal.entity';
import { Actor, CONTINUATION_LIMITS, ContinuationReason, ContinueSessionRequest, SourceKind } from '../../modules/continuation/continuations';
import { continueSessionToolRequest } from '../../modules/continuation/continue-session.tool';
import type { ContinuationResult, ContinuationService, RecommendationsAhead } from '../../modules/continuation/continuations.service';
import { ProposalStatus } from '../../modules/continuation/proposals';
import type { ProposalService } from '../../modules/continuation/proposals.service';
import { ACTIVE_RUN_STATUSES, RunKind } from '../../modules/conversation/runs';
import { RunEntity } from '../../modules/conversation/run.entity';
import { ContinuationApproval, TITLE_MAX_CHARS } from '../../modules/conversation/sessions';
import type { Lease } from '../../modules/conversation/run.repository';
import { ErrorCode, Outcome } from '../../shared/errors';
import { logger } from '../../platform/observability/logger';
import { ModelContextExceeded, ModelMessage, ModelProvider, ModelProviderError, ModelToolDefinition } from '../agent';
import type { RunWrites } from './run-writes';
import type { HeadStart } from './head-start';
import { StreamedStrings } from './streamed-strings';
import { parseArguments } from './tool-calls';
import type { NextTurn, TurnStart } from './turn-context';

/** A successor's first request beyond its projection and the fixed part: the frames of its two messages, with room to spare. */
const SUCCESSOR_FRAME_TOKENS = 256;
/** Drafts asked of the model before the runtime writes the handoff itself. */
const DRAFT_ATTEMPTS = 2;
/** Refusals that mean the draft was wrong, which the model may correct; any other refusal is the session's state. */
const DRAFT_PROBLEMS = new Set<string>([ErrorCode.INVALID_INPUT, ErrorCode.SOURCE_NOT_FOUND]);

/** Where a draft's arguments hold what assisted selection ranks for. */
const PURPOSE_PATH = ['handoff', 'purpose'];
const CURRENT_REQUEST_PATH = ['handoff', 'currentRequest'];

/** How long an account refused for its rate of continuations is not asked for drafts: the rate's window. */
const RATE_LIMIT_PAUSE_MS = 60_000;

/** What became of a turn that started past the threshold, and the successor's turn when this worker is to start it. */
export interface PressureOutcome {
  outcome: 'CONTINUED' | 'PROPOSED' | 'ANSWER_HERE';
  next: NextTurn | null;
}

/** A turn continuing at the threshold: what each of its writes needs. */
interface Attempt {
  lease: Lease;
  run: RunEntity;
  start: TurnStart;
  /** Given, the successor's run is leased to this worker, which starts it next. */
  leaseMs: number | null;
  recommendedAhead?: RecommendationsAhead;
  /** Begins the successor's first model call while the continuation commits, when this worker starts the successor. */
  startSuccessor: ((next: NextTurn) => HeadStart<TurnStart>) | null;
  headStart: HeadStart<TurnStart> | null;
}

/**
 * The runtime's continuation at the context threshold, for models that do not decide it
 * themselves: when a user message arrives and the whole context with it is past the threshold,
 * the runtime asks the model for a `continue_session` draft (the tool forced), checks it, and
 * continues with reason CONTEXT_PRESSURE by the SYSTEM, the budget filled by assisted selection.
 * A draft wrong twice, or a model that fails, gets a minimal handoff the runtime writes itself.
 */
export class PressureContinuation {
  /** Accounts whose continuations were refused for their rate, until when: their turns answer in place meanwhile. */
  private readonly rateLimitedUntil = new Map<string, number>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly writes: RunWrites,
    private readonly continuations: ContinuationService,
    private readonly proposals: ProposalService,
    private readonly schema: GraphQLSchema,
    private readonly provider: ModelProvider,
    private readonly tool: ModelToolDefinition,
    private readonly threshold: number,
    /** Told of a refusal for the context length, which the fallback handoff then answers. */
    private readonly contextExceeded: (error: ModelContextExceeded) => void,
  ) {}

  /**
   * Whether the turn must continue before it answers: a user's new message (not a successor's
   * replayed one, not delegated work) with the prompt past the threshold, in a session whose
   * person has not already been asked (an ASK session's pending or rejected proposal).
   */
  async due(run: RunEntity, start: TurnStart): Promise<boolean> {
    const message = start.facts.userMessage;
    if (this.provider.continuesAtThreshold || run.kind !== RunKind.TURN || !message || message.replayed) return false;
    if (start.facts.rejectedContinuation || start.promptTokens < this.threshold * start.windowTokens) return false;
    if ((this.rateLimitedUntil.get(run.accountId) ?? 0) > Date.now()) return false;
    this.rateLimitedUntil.delete(run.accountId);
    if (start.session.continuationApproval !== ContinuationApproval.ASK) return true;
    const asked = await this.dataSource.manager.countBy(ContinuationProposalEntity, {
      sessionId: start.session.id,
      status: In([ProposalStatus.PENDING, ProposalStatus.REJECTED]),
    });
    return asked === 0;
  }

  /**
   * Continues (or proposes, in an ASK session); ANSWER_HERE when the session cannot continue now
   * (a rate or streak limit). With `leaseMs`, the successor's run is written leased to this
   * lease's worker and returned, with what the write holds in memory, for it to start at once; with
   * `startSuccessor` too, its first model call is already under way.
   */
  async continueAtThreshold(
    lease: Lease,
    run: RunEntity,
    start: TurnStart,
    signal: AbortSignal,
    leaseMs: number | null = null,
    startSuccessor: ((next: NextTurn) => HeadStart<TurnStart>) | null = null,
  ): Promise<PressureOutcome> {
    const continuing: Attempt = { lease, run, start, leaseMs, startSuccessor: leaseMs === null ? null : startSuccessor, headStart: null };
    const write = (request: ContinueSessionRequest) => this.write(continuing, request);
    const key = `pressure:${run.id}`;
    const messages: ModelMessage[] = [...start.messages, { role: 'system', content: draftInstruction(start, this.threshold) }];
    for (let attempt = 1; attempt <= DRAFT_ATTEMPTS; attempt += 1) {
      let problems: string;
      try {
        const handoff = new StreamedStrings([PURPOSE_PATH, CURRENT_REQUEST_PATH]);
        const reply = await this.provider.complete({
          messages,
          tools: [this.tool],
          facts: start.facts,
          signal,
          requiredTool: this.tool.name,
          maxOutputTokens: start.reserveTokens,
          // Assisted selection needs only the handoff's purpose and request: its search runs while the model writes the rest.
          onArgumentsDelta: (call, delta) => {
            if (call.index !== 0 || call.name !== this.tool.name || handoff.complete || !handoff.push(delta)) return;
            const query = { sessionId: start.session.id, handoff: { purpose: handoff.value(PURPOSE_PATH)!, currentRequest: handoff.value(CURRENT_REQUEST_PATH)! } };
            continuing.recommendedAhead = this.continuations.recommendationsAhead(start.viewer, query, start.session.originId);
          },
        });
        const call = reply.toolCalls.find((candidate) => candidate.name === this.tool.name);
        const parsed = call ? this.request(run, start, key, call.arguments) : { ok: false as const, problems: ['No continue_session call was made.'] };
        if (parsed.ok) {
          const outcome = await write(parsed.request);
          if (outcome.ok || !DRAFT_PROBLEMS.has(outcome.error.code)) return this.settled(continuing, outcome, 'draft');
          problems = `${outcome.error.code}: ${outcome.error.message}${outcome.error.details.map((detail) => ` ${detail.path.join('.')}: ${detail.message}`).join(';')}`;
        } else {
          problems = `INVALID_INPUT: ${parsed.problems.join('; ')}`;
        }
        if (call) messages.push({ role: 'assistant', content: null, toolCalls: [call] }, { role: 'tool', toolCallId: call.id, content: JSON.stringify({ error: problems }) });
      } catch (error) {
        if (signal.aborted || !(error instanceof ModelProviderError)) throw error;
        if (error instanceof ModelContextExceeded) this.contextExceeded(error);
        logger.warn({ sessionId: start.session.id, err: error }, 'The model could not draft the handoff at the context threshold; the runtime writes it');
        break;
      }
      logger.warn({ sessionId: start.session.id, attempt, problems }, 'A handoff drafted at the context threshold was refused');
    }
    return this.settled(continuing, await write(runtimeHandoff(run, start, key, this.successorBudget(start))), 'runtime');
  }

  /** The draft as a request: the model's fields checked as the API checks them, the runtime's fields and reason laid over them. */
  private request(run: RunEntity, start: TurnStart, key: string, raw: string) {
    const args = parseArguments(raw);
    if (!args) return { ok: false as const, problems: ['The arguments are not a JSON object.'] };
    const parsed = continueSessionToolRequest(this.schema, args, { sessionId: start.session.id, idempotencyKey: key, initiatingEventId: run.triggerEventId });
    if (!parsed.ok) return parsed;
    const request: ContinueSessionRequest = { ...parsed.request, reason: ContinuationReason.CONTEXT_PRESSURE, assist: true, tokenBudget: this.successorBudget(start) };
    return { ok: true as const, request };
  }

  /**
   * Writes the continuation; when its budget is below what the projection needs at least (a long
   * message in a small window), once more with that least, if the successor's window still holds it.
   */
  private async write(attempt: Attempt, request: ContinueSessionRequest): Promise<Outcome<unknown>> {
    const outcome = await this.writeOnce(attempt, request);
    const least = outcome.ok ? undefined : outcome.error.leastTokenBudget;
    if (least === undefined || least <= (request.tokenBudget ?? 0) || least > this.largestBudget(attempt.start)) return outcome;
    return this.writeOnce(attempt, { ...request, tokenBudget: least });
  }

  private async writeOnce(attempt: Attempt, request: ContinueSessionRequest): Promise<Outcome<unknown>> {
    const { lease, run, start, leaseMs, startSuccessor } = attempt;
    if (start.session.continuationApproval === ContinuationApproval.ASK) {
      await this.writes.assertLease(lease);
      return this.proposals.propose(start.viewer, request, { runId: run.id, toolCallId: request.idempotencyKey, callEvent: null });
    }
    // The run is settled in the continuation's transaction, under its lease.
    const leaseTo = leaseMs === null ? undefined : { owner: lease.owner, leaseMs };
    const beforeCommit = startSuccessor
      ? (result: ContinuationResult) => {
          const next = successorTurn(result, start, lease);
          if (next) attempt.headStart = startSuccessor(next);
        }
      : undefined;
    const options = { actor: Actor.SYSTEM, callerRunId: run.id, leaseTo, settles: lease, originId: start.session.originId, recommendedAhead: attempt.recommendedAhead, beforeCommit };
    try {
      return await this.continuations.continueSession(start.viewer, request, options);
    } catch (error) {
      attempt.headStart?.cancel(error);
      attempt.headStart = null;
      throw error;
    }
  }

  private async settled(attempt: Attempt, outcome: Outcome<unknown>, author: 'draft' | 'runtime'): Promise<PressureOutcome> {
    const { lease, run, start, headStart } = attempt;
    const next = outcome.ok && start.session.continuationApproval !== ContinuationApproval.ASK ? successorTurn(outcome.value as ContinuationResult, start, lease) : null;
    // A replay (the continuation was written by an earlier try) brings no call under way.
    if (headStart && !next) headStart.cancel();
    if (!outcome.ok) {
      // Drafts asked while the rate stays exceeded would be thrown away.
      if (outcome.error.code === ErrorCode.RATE_LIMITED) this.rateLimitedUntil.set(run.accountId, Date.now() + RATE_LIMIT_PAUSE_MS);
      logger.warn({ sessionId: start.session.id, code: outcome.error.code, author }, 'The session could not continue at the context threshold; the turn answers in place');
      return { outcome: 'ANSWER_HERE', next: null };
    }
    if (start.session.continuationApproval === ContinuationApproval.ASK) {
      await this.writes.succeedElsewhere(lease);
      return { outcome: 'PROPOSED', next: null };
    }
    // A replay (the run retried after its continuation was written) settled nothing.
    if ((outcome.value as ContinuationResult).replayed) await this.writes.succeedElsewhere(lease);
    return { outcome: 'CONTINUED', next: next && headStart ? { ...next, headStart } : next };
  }

  /** The largest projection budget whose successor's first request still fits the window, with room for its message's frame. */
  largestBudget(start: TurnStart): number {
    const fixed = start.promptTokens - start.facts.contextUsage.tokens;
    return Math.max(CONTINUATION_LIMITS.minTokenBudget, start.windowTokens - start.reserveTokens - fixed - SUCCESSOR_FRAME_TOKENS);
  }

  /**
   * The successor's projection budget: half of what the threshold leaves after the instructions
   * and tool definitions, so that the successor has room for its own exchange before it is due again.
   */
  successorBudget(start: TurnStart): number {
    const fixed = start.promptTokens - start.facts.contextUsage.tokens;
    return Math.max(CONTINUATION_LIMITS.minTokenBudget, Math.floor((this.threshold * start.windowTokens - fixed) / 2));
  }
}

/** The successor's run, when the write leased it to this lease's worker, with what the write holds. */
function successorTurn(result: ContinuationResult, start: TurnStart, lease: Lease): NextTurn | null {
  const { run, successor, written } = result;
  if (!written || run.leaseOwner !== lease.owner) return null;
  const pendingRuns = written.movedRuns.filter((moved) => ACTIVE_RUN_STATUSES.includes(moved.status));
  const trigger = written.successorEvents[1];
  return { run, known: { session: successor, viewer: start.viewer, trigger, manifest: written.manifest, events: written.successorEvents, plan: written.plan, pendingRuns } };
}

function draftInstruction(start: TurnStart, threshold: number): string {
  const percent = Math.round((start.promptTokens / start.windowTokens) * 100);
  return [
    `The context of this conversation is ${percent}% full, past the ${Math.round(threshold * 100)}% at which it continues in a new session.`,
    'Before anything is answered, call continue_session (reason context_pressure) with a handoff a successor can work from:',
    'the latest user message verbatim as the current request, the purpose of the work, the facts established, decisions,',
    'open questions and next actions so far, and cite the exact events that matter. The successor answers the message.',
  ].join(' ');
}

/** The minimal honest handoff: the message as the request, the pressure as the purpose, the conversation before it as the source. */
function runtimeHandoff(run: RunEntity, start: TurnStart, key: string, tokenBudget: number): ContinueSessionRequest {
  const { facts } = start;
  const percent = Math.round((start.promptTokens / start.windowTokens) * 100);
  return {
    sessionId: start.session.id,
    idempotencyKey: key,
    initiatingEventId: run.triggerEventId,
    reason: ContinuationReason.CONTEXT_PRESSURE,
    title: continuedTitle(start.session.title),
    handoff: {
      purpose: `Carry on with "${start.session.title}" in a fresh context: the previous one was ${percent}% full.`,
      currentRequest: facts.userMessage?.text.trim() || 'Carry on where the conversation left off.',
      cautions: ['The runtime wrote this handoff, not the agent: read the cited conversation for what was established and decided.'],
    },
    sources: facts.citableRange
      ? [{ kind: SourceKind.SESSION_EVENTS, relevance: 'The conversation before this request.', sessionId: facts.sessionId, ...facts.citableRange }]
      : [],
    assist: true,
    tokenBudget,
  };
}

function continuedTitle(title: string): string {
  if (title.endsWith('(continued)')) return title;
  const continued = `${title} (continued)`;
  return continued.length <= TITLE_MAX_CHARS ? continued : `${title.slice(0, TITLE_MAX_CHARS - 13)}… (continued)`;
}
