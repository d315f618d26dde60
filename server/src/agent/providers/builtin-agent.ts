import { setTimeout as sleep } from 'node:timers/promises';
import { ModelProvider, ModelReply, ModelRequest, TurnFacts } from '../agent';
import { continuationAdvised } from '../../modules/conversation/context-usage';
import { TITLE_MAX_CHARS } from '../../modules/conversation/sessions';
import { CONTINUATION_LIMITS, ContinuationReason } from '../../modules/continuation/continuations';
import { clipText } from '../../shared/text';

/**
 * The reference agent: deterministic, offline, and small. It answers briefly and continues the
 * session for the reasons a rule can see, writing the handoff from the transcript and state:
 *
 * - `/continue <title>`, or "continue in a new session": USER_REQUEST;
 * - `/phase <name>`: PHASE_CHANGE, the successor named after the phase;
 * - the context past the advised share of the window, seen when a turn starts: CONTEXT_PRESSURE;
 * - a plainly different subject ({@link isTopicShift}): TOPIC_CHANGE.
 *
 * `/echo <text>` answers with the text exactly as written (to see how an answer renders).
 * `/delegate <task>` starts delegated work in a child session, and `/search <words>` searches the
 * lineage's history (`search_history`), answering with the best hits and their exact addresses. A
 * successor's first turn never continues again: it answers the replayed message.
 */
export class BuiltinAgent implements ModelProvider {
  readonly name = 'builtin';
  readonly continuesAtThreshold = true;

  /** `pauseMs` between the word groups of a streamed answer, as a model producing tokens pauses. */
  constructor(private readonly pauseMs = 5) {}

  async complete(request: ModelRequest): Promise<ModelReply> {
    const reply = this.decide(request);
    if (reply.text && request.onTextDelta) await streamWordGroups(reply.text, request.onTextDelta, this.pauseMs, request.signal);
    return reply;
  }

  private decide({ messages, facts }: ModelRequest): ModelReply {
    const last = messages[messages.length - 1];
    if (last?.role === 'tool') return text(afterTool(messages, last.toolCallId, last.content));
    if (facts.delegatedTask !== null) return text(`Done: ${excerpt(facts.delegatedTask, 200)}`);
    if (facts.rejectedContinuation) return text(rejectedAnswer(facts.rejectedContinuation));
    const message = facts.userMessage;
    if (!message) return text('There is no message to answer yet.');
    if (!message.replayed) {
      const decision = continuationDecision(facts);
      if (decision) {
        return call(`builtin-${message.id}-continue`, 'continue_session', continueArguments(facts, decision));
      }
      const delegated = /^\/delegate\s+([\s\S]+)/i.exec(message.text.trim());
      if (delegated) return call(`builtin-${message.id}-delegate`, 'delegate', { task: delegated[1].trim() });
      const echoed = ECHO_COMMAND.exec(message.text.trim());
      if (echoed) return text(echoed[1]);
      const searched = SEARCH_COMMAND.exec(message.text.trim());
      if (searched) return call(`builtin-${message.id}-search`, 'search_history', { query: searched[1].trim(), first: 3 });
    }
    return text(answer(message.text, facts));
  }
}

/** Words per streamed piece of an answer. */
const WORDS_PER_GROUP = 3;

/** Hands `text` on in groups of a few words (each keeping the spaces after it), pausing between them; stops when aborted. */
async function streamWordGroups(text: string, onTextDelta: (delta: string) => void, pauseMs: number, signal?: AbortSignal): Promise<void> {
  const words = text.match(/\S+\s*|\s+/g) ?? [];
  for (let start = 0; start < words.length; start += WORDS_PER_GROUP) {
    signal?.throwIfAborted();
    if (start > 0) await sleep(pauseMs, undefined, { signal });
    onTextDelta(words.slice(start, start + WORDS_PER_GROUP).join(''));
  }
}

export interface ContinuationDecision {
  reason: ContinuationReason;
  title: string;
}

const CONTINUE_COMMAND = /^\/continue(?:\s+([\s\S]*))?$/i;
const CONTINUE_PHRASE = /\bcontinue (?:this )?in a new session\b/i;
const PHASE_COMMAND = /^\/phase\s+([\s\S]+)$/i;
const SEARCH_COMMAND = /^\/search\s+([\s\S]+)$/i;
const ECHO_COMMAND = /^\/echo\s+([\s\S]+)$/i;

/** Whether, and why, the turn for `facts.userMessage` should move to a successor instead of being answered here. */
export function continuationDecision(facts: TurnFacts): ContinuationDecision | null {
  const request = facts.userMessage!.text.trim();
  const explicit = CONTINUE_COMMAND.exec(request);
  if (explicit) return { reason: ContinuationReason.USER_REQUEST, title: titleFrom(explicit[1], `${facts.sessionTitle} (continued)`) };
  if (CONTINUE_PHRASE.test(request)) return { reason: ContinuationReason.USER_REQUEST, title: continuedTitle(facts.sessionTitle) };
  const phase = PHASE_COMMAND.exec(request);
  if (phase) return { reason: ContinuationReason.PHASE_CHANGE, title: titleFrom(phase[1], facts.sessionTitle) };
  if (continuationAdvised(facts.contextUsage)) {
    return { reason: ContinuationReason.CONTEXT_PRESSURE, title: continuedTitle(facts.sessionTitle) };
  }
  if (!request.startsWith('/') && isTopicShift(facts.earlierUserMessages, request)) {
    return { reason: ContinuationReason.TOPIC_CHANGE, title: titleFrom(request, facts.sessionTitle) };
  }
  return null;
}

const STOP_WORDS = new Set(
  ('about above after again also always among another because been before being below between both cannot could does ' +
    'doing done down during each either else even ever every from further have having here hers herself himself into ' +
    'itself just like made make many more most much must myself need never next once only other ours ourselves over ' +
    'please same should since some still such than that their theirs them themselves then there these they thing ' +
    'things this those though through thus under until upon very want were what when where which while whom whose ' +
    'will with within without would your yours yourself yourselves okay thanks thank good great sure know think ' +
    'tell show give take let lets well really maybe might shall going able now today new work'
  ).split(' '),
);

/** Content words: lower-case letter runs of four or more, not stop words, with a plural "s" taken off. */
export function contentWords(text: string): Set<string> {
  const words = text.toLowerCase().match(/\p{L}{4,}/gu) ?? [];
  return new Set(words.filter((word) => !STOP_WORDS.has(word)).map((word) => (word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word)));
}

/** Earlier messages needed before a shift can be told from a conversation just getting going. */
export const TOPIC_HISTORY_MESSAGES = 3;
/** Content words the new message needs before its vocabulary says anything. */
export const TOPIC_MIN_WORDS = 5;

/**
 * A plainly different subject, by a lexical measure: after at least three earlier user messages,
 * a message with at least five content words that shares none of them with those messages.
 * Deliberately strict: a missed shift costs a longer session, a false one an unwanted move.
 */
export function isTopicShift(earlierUserMessages: string[], message: string): boolean {
  const earlier = earlierUserMessages.filter((text) => !text.trim().startsWith('/'));
  if (earlier.length < TOPIC_HISTORY_MESSAGES) return false;
  const words = contentWords(message);
  if (words.size < TOPIC_MIN_WORDS) return false;
  const seen = contentWords(earlier.join(' '));
  return [...words].every((word) => !seen.has(word));
}

const DECISION = /^(?:decided|decision|we(?:'ll| will)|let's|lets|use|go with|agreed)\b/i;

/** Sentences of the earlier messages, newest last. */
function sentences(texts: string[]): string[] {
  return texts.flatMap((text) => text.split(/(?<=[.!?])\s+|\n+/)).map((sentence) => sentence.trim()).filter(Boolean);
}

/** The `continue_session` arguments the reference agent writes: a handoff from the transcript and state, with exact sources. */
export function continueArguments(facts: TurnFacts, decision: ContinuationDecision): Record<string, unknown> {
  const said = sentences(facts.earlierUserMessages);
  const usage = facts.contextUsage;
  const percent = Math.round((usage.tokens / usage.windowTokens) * 100);
  const openSteps = facts.openPlan?.steps.filter((step) => step.status !== 'DONE' && step.status !== 'CANCELLED') ?? [];
  // What the successor is about, in the conversation's own words: assisted selection ranks the
  // earlier material by them.
  const focus = {
    USER_REQUEST: decision.title,
    PHASE_CHANGE: decision.title,
    CONTEXT_PRESSURE: facts.earlierUserMessages.filter((text) => !text.trim().startsWith('/')).slice(-1)[0] ?? facts.sessionTitle,
    TOPIC_CHANGE: facts.userMessage!.text,
    OTHER: facts.sessionTitle,
  }[decision.reason];
  const purpose = {
    USER_REQUEST: `Carry on with "${facts.sessionTitle}" in a new session, as the user asked: ${excerpt(focus, 200)}.`,
    PHASE_CHANGE: `Start the phase "${decision.title}" of "${facts.sessionTitle}".`,
    CONTEXT_PRESSURE: `Carry on with "${facts.sessionTitle}" in a fresh context (the previous one was ${percent}% full): ${excerpt(focus, 200)}`,
    TOPIC_CHANGE: `Take up a new subject that came up in "${facts.sessionTitle}": ${excerpt(focus, 200)}`,
    OTHER: `Carry on with "${facts.sessionTitle}".`,
  }[decision.reason];
  const cautions =
    decision.reason === ContinuationReason.TOPIC_CHANGE
      ? ['Continued by a lexical rule: the message shares no content words with the earlier ones. If it belongs to the earlier subject, go back.']
      : [];
  return {
    reason: decision.reason.toLowerCase(),
    title: decision.title,
    handoff: {
      purpose,
      // A message may be longer than a handoff field takes: the successor replays it whole anyway.
      currentRequest: clipText(facts.userMessage!.text, CONTINUATION_LIMITS.handoffTextChars),
      establishedFacts: [
        `The previous session held ${usage.tokens} tokens of a ${usage.windowTokens}-token window.`,
        ...(facts.openPlan ? [`A plan (revision ${facts.openPlan.revision}) has ${openSteps.length} open steps.`] : []),
      ],
      decisions: said.filter((sentence) => DECISION.test(sentence)).slice(-5).map(handoffItem),
      openQuestions: said.filter((sentence) => sentence.endsWith('?')).slice(-3).map(handoffItem),
      nextActions: openSteps.map((step) => handoffItem(step.title)).slice(0, 10),
      cautions,
    },
    sources: facts.citableRange
      ? [
          {
            kind: 'session_events',
            relevance: 'the conversation before this request',
            sessionId: facts.sessionId,
            fromEventId: facts.citableRange.fromEventId,
            toEventId: facts.citableRange.toEventId,
          },
        ]
      : [],
    transfer: { plan: facts.openPlan ? 'carry' : 'omit', pendingRuns: facts.pendingRunIds },
    // Earlier material of the lineage that matches the purpose fills what the budget leaves.
    assist: true,
  };
}

const handoffItem = (text: string) => clipText(text, CONTINUATION_LIMITS.handoffTextChars);

function answer(message: string, facts: TurnFacts): string {
  const request = message.trim();
  if (facts.userMessage!.replayed && (CONTINUE_COMMAND.test(request) || PHASE_COMMAND.test(request))) {
    return `This is "${facts.sessionTitle}", a new session. The earlier conversation is one step back and unchanged; go on when you are ready.`;
  }
  const names = facts.userMessage!.attachmentNames;
  const attached = names.length ? ` Attached: ${names.join(', ')}.` : '';
  if (request.endsWith('?')) return `On "${excerpt(request, 120)}": I am the built-in reference agent, so I keep track rather than look things up.${attached}`;
  return `Noted: "${excerpt(request, 120)}".${attached}`;
}

/** The answer in place after a person rejected a continuation: it stays here and says what it heard. */
function rejectedAnswer({ title, note }: { title: string; note: string | null }): string {
  const heard = note ? ` You said: "${excerpt(note, 300)}"; I will go on with that in mind.` : '';
  return `Understood: we stay in this session rather than moving to "${excerpt(title, 120)}".${heard}`;
}

/** The answer after one of the agent's own tool calls came back within the turn. */
function afterTool(messages: ModelRequest['messages'], toolCallId: string, result: string): string {
  const call = messages
    .flatMap((message) => (message.role === 'assistant' ? (message.toolCalls ?? []) : []))
    .find((candidate) => candidate.id === toolCallId);
  const name = call?.name;
  if (name === 'delegate') return `Started delegated work; its report will arrive here. ${excerpt(result, 200)}`;
  if (name === 'continue_session') return `I could not continue in a new session, so I answer here. ${refusalMessage(result)}`;
  if (name === 'search_history') return searchAnswer(result);
  return excerpt(result, 300);
}

/** A refused tool call's reason in words: the tool result is JSON (`{ "error": "CODE: message" }`), never shown as such. */
function refusalMessage(result: string): string {
  let reason = '';
  try {
    const parsed = JSON.parse(result) as { error?: unknown };
    if (typeof parsed.error === 'string') reason = parsed.error.replace(/^[A-Z_]+:\s*/, '');
  } catch {
    // Not JSON: no reason to quote.
  }
  return reason ? `The server said: ${excerpt(reason, 300)}` : 'The server gave no reason.';
}

interface SearchHistoryResult {
  totalCount?: number;
  hits?: { sessionId: string; eventId: string; seq: number; snippet: string }[];
  error?: string;
}

/** The best hits of a search, each with the address read_events takes, the snippet's marks as plain text. */
function searchAnswer(result: string): string {
  const found = JSON.parse(result) as SearchHistoryResult;
  if (found.error || !found.hits) return `The search failed: ${found.error ?? 'no answer'}`;
  if (found.hits.length === 0) return 'Nothing earlier in this lineage matches that.';
  const plain = (snippet: string) => snippet.replace(/<\/?mark>/g, '').replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
  const lines = found.hits.map((hit) => `- session ${hit.sessionId}, event ${hit.eventId} (seq ${hit.seq}): ${excerpt(plain(hit.snippet), 200)}`);
  return [`Found ${found.totalCount} matching event${found.totalCount === 1 ? '' : 's'}; the best:`, ...lines].join('\n');
}

function titleFrom(raw: string | undefined, fallback: string): string {
  const title = (raw ?? '').trim().split('\n')[0];
  return excerpt(title || fallback, TITLE_MAX_CHARS);
}

function continuedTitle(title: string): string {
  return title.endsWith('(continued)') ? title : excerpt(`${title} (continued)`, TITLE_MAX_CHARS);
}

function excerpt(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

function text(content: string): ModelReply {
  return { text: content, toolCalls: [] };
}

function call(id: string, name: string, args: Record<string, unknown>): ModelReply {
  return { text: null, toolCalls: [{ id, name, arguments: JSON.stringify(args) }] };
}
