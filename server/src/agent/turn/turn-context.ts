import { DataSource } from 'typeorm';
import { runtimeViewerRead } from '../../modules/accounts/account.repository';
import { isImageMediaType } from '../../modules/attachments/attachments';
import { AttachmentService, attachmentReference } from '../../modules/attachments/attachments.service';
import { successorManifest } from '../../modules/continuation/continuation.repository';
import type { ProjectionManifestEntity } from '../../modules/continuation/projection-manifest.entity';
import { ContextUsage, contextTokens } from '../../modules/conversation/context-usage';
import type { EventEntity } from '../../modules/conversation/event.entity';
import type { RunEntity } from '../../modules/conversation/run.entity';
import { pendingDelegatedRuns } from '../../modules/conversation/run.repository';
import { RunKind } from '../../modules/conversation/runs';
import type { SessionEntity } from '../../modules/conversation/session.entity';
import { SessionKind } from '../../modules/conversation/sessions';
import { EventKind } from '../../modules/conversation/transcript';
import { TailEvent, eventById, eventsAtSeqs, sessionById, transcriptTail, userMessageTextsBefore } from '../../modules/conversation/transcript.repository';
import { latestPlanRead } from '../../modules/plans/plan.repository';
import { answered, readInOneRoundTrip } from '../../platform/db/read-batch';
import { firstOf } from '../../platform/db/rows';
import type { PlanRevisionEntity } from '../../modules/plans/plan-revision.entity';
import type { Viewer } from '../../shared/viewer';
import type { ModelAttachment, ModelMessage, ModelProvider, TurnFacts } from '../agent';
import { agentInstructions, projectedMessages, transcriptMessages } from '../model-context';
import type { HeadStart } from './head-start';
import { relevantExcerpts } from './relevant-excerpts';
import { OmittedRange, eventContextTokens, messageTokens, messagesTokens, omissionNote, outputReserve } from './context-budget';

/** What one turn of a session starts from: the messages for the model and the facts about them. */
export interface TurnStart {
  viewer: Viewer;
  session: SessionEntity;
  messages: ModelMessage[];
  facts: TurnFacts;
  /** The window the messages were fitted to: the configured one, or a smaller limit the provider stated. */
  windowTokens: number;
  /** Room left in the window for the answer. */
  reserveTokens: number;
  /** The whole prompt unabridged: instructions, tool definitions and the session's context usage. */
  promptTokens: number;
  /** History left out of `messages` to fit the window, which the messages list as handles. */
  omitted: OmittedRange[];
}

/** What a worker already holds of a turn it starts itself (a successor it just wrote): not read again. */
export interface KnownTurn {
  session: SessionEntity;
  viewer: Viewer;
  /** The run's trigger, which for a successor is its opening message. */
  trigger: EventEntity;
  manifest: ProjectionManifestEntity;
  /** The session's whole transcript so far. */
  events: EventEntity[];
  plan: PlanRevisionEntity | null;
  /** Its delegated runs still pending. */
  pendingRuns: RunEntity[];
}

/** A run leased to the worker that wrote it, to execute next in the same slot. */
export interface NextTurn {
  run: RunEntity;
  known: KnownTurn;
  /** Its first model call, already under way. */
  headStart?: HeadStart<TurnStart>;
}

export interface ContextSettings {
  /** The model's context window, in tokens of the server's tokenizer. */
  windowTokens: number;
  /** Share of the window from which a continuation is advised. */
  threshold: number;
  /** Room kept for the answer; null sizes it for the window. */
  maxOutputTokens?: number | null;
  /** What the tool definitions and the request's frame take, counted once. */
  toolTokens?: number;
}

const EARLIER_USER_MESSAGES = 6;
/** Images larger than this are given to a model by reference only (OpenAI takes images of up to 20 MB). */
const MODEL_IMAGE_MAX_BYTES = 20 * 1024 * 1024;
/** Text files larger than this are given to a model by reference only; read_attachment reads their start. */
const MODEL_TEXT_MAX_BYTES = 64 * 1024;
/** Kept for the note that lists omitted history, when history is left out. */
const OMISSION_NOTE_TOKENS = 160;
/** Share of the history's room given to excerpts of what is left out that bear on the message, when history is left out. */
const EXCERPT_SHARE = 0.25;

/** Loads a run's turn: the model's context and the facts about it. */
export class TurnContextLoader {
  constructor(
    private readonly dataSource: DataSource,
    private readonly attachments: AttachmentService,
    private readonly provider: Pick<ModelProvider, 'readsAttachments'>,
    private readonly settings: ContextSettings,
  ) {}

  /**
   * The model's context for the run's turn, loaded in O(window) and fitted to `windowTokens` with
   * the tool definitions and the answer's room: the projection for a successor, then the
   * transcript's tail; history that does not fit is listed as handles, never silently cut.
   */
  async turnStart(run: RunEntity, windowTokens = this.settings.windowTokens, known: KnownTurn | null = null): Promise<TurnStart> {
    const manager = this.dataSource.manager;
    const sessionId = run.kind === RunKind.DELEGATED ? run.childSessionId! : run.sessionId;
    const [found, viewer, trigger] = known
      ? [known.session, known.viewer, known.trigger]
      : await readInOneRoundTrip(manager, [sessionById(manager, sessionId), runtimeViewerRead(run.accountId), run.triggerEventId ? eventById(manager, run.triggerEventId) : answered(null)]);
    const session = found ?? missing(`session ${sessionId}`);
    if (run.triggerEventId && !trigger) missing(`event ${run.triggerEventId}`);
    const throughSeq = trigger?.seq ?? session.eventCount;
    const throughTokens = trigger?.tokenTotal ?? session.tokenCount;
    const [manifest, opening, forkPoint] = known ? [known.manifest, known.trigger, null] : await this.origin(session);
    const usage: ContextUsage = {
      tokens: contextTokens({
        kind: session.kind,
        tokensThrough: throughTokens,
        projectedContextTokens: manifest?.tokenCost ?? null,
        openingTokens: opening?.tokenTotal ?? null,
        forkPointTokens: forkPoint?.tokenTotal ?? null,
      }),
      windowTokens,
      threshold: this.settings.threshold,
    };
    const instructions: ModelMessage = { role: 'system', content: agentInstructions(usage, session.title) };
    const reserveTokens = outputReserve(windowTokens, this.settings.maxOutputTokens ?? null);
    const toolTokens = this.settings.toolTokens ?? 0;
    const frameTokens = reserveTokens + toolTokens + messageTokens(instructions);
    // Stored counts leave out each message's frame: the tail read by them holds at least what fits, and is cut to fit below.
    const historyAllowance = windowTokens - frameTokens - (manifest?.tokenCost ?? 0);
    // A successor's own history starts after its opening; everything before is in its projection.
    const firstOwnSeq = manifest ? 3 : 1;
    // The range a handoff would cite: the session's first event through the one before the message.
    const citable = trigger && trigger.seq > 1 ? [1, trigger.seq - 1] : [];
    const ownBefore = manifest ? (opening?.tokenTotal ?? 0) : 0;
    const ownRange = { fromSeq: firstOwnSeq, throughSeq };
    const afterTokens = throughTokens - historyAllowance;
    // Everything else the turn reads depends only on what is known by now: one round trip for all of it.
    const [own, inherited, earlier, plan, pending, bounds] = known
      ? readFromKnown(known, ownRange, afterTokens, citable)
      : await readInOneRoundTrip(manager, [
          transcriptTail(session.id, ownRange, afterTokens),
          // A fork's own events come first in the window; its inherited history fills what is left.
          forkPoint
            ? transcriptTail(forkPoint.sessionId, { fromSeq: 1, throughSeq: forkPoint.seq }, forkPoint.tokenTotal - (historyAllowance - (throughTokens - ownBefore)))
            : answered([]),
          userMessageTextsBefore(session.id, throughSeq, EARLIER_USER_MESSAGES),
          latestPlanRead(manager, session.id),
          pendingDelegatedRuns(manager, session.id),
          citable.length ? eventsAtSeqs(manager, session.id, citable) : answered([]),
        ]);
    const replayedCids = manifest ? (opening?.attachmentCids ?? []) : [];
    const attached = await this.modelAttachments(viewer, [
      ...replayedCids,
      ...(trigger?.attachmentCids ?? []),
      ...[...inherited, ...own].flatMap((event) => event.attachmentCids),
    ]);
    const head: ModelMessage[] = [instructions, ...(manifest ? projectedMessages(manifest.context, replayedCids, attached, !manifest.erasedAt) : [])];
    const history = fittedHistory({
      own: { sessionId: session.id, firstSeq: firstOwnSeq, tokensBefore: ownBefore, events: own, throughSeq, throughTokens },
      inherited: forkPoint ? { sessionId: forkPoint.sessionId, firstSeq: 1, tokensBefore: 0, events: inherited, throughSeq: forkPoint.seq, throughTokens: forkPoint.tokenTotal } : null,
      allowance: windowTokens - reserveTokens - toolTokens - messagesTokens(head),
      attached,
    });
    const excerpts =
      history.omitted.length > 0 && trigger?.text
        ? await relevantExcerpts(manager, { accountId: run.accountId, omitted: history.omitted, message: trigger.text, allowance: history.excerptAllowance })
        : null;
    // After the note listing what is left out, before the recent exchange.
    const historyMessages = excerpts ? [history.messages[0], excerpts.message, ...history.messages.slice(1)] : history.messages;
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
      earlierUserMessages: earlier,
      citableRange: bounds.length ? { fromEventId: bounds[0].id, toEventId: bounds[bounds.length - 1].id } : null,
      contextUsage: usage,
      openPlan: plan && !plan.closed ? { revision: plan.revision, steps: plan.steps.map(({ title, status }) => ({ title, status })) } : null,
      pendingRunIds: pending.map((pendingRun) => pendingRun.id),
      delegatedTask: run.kind === RunKind.DELEGATED ? (trigger?.text ?? '') : null,
      rejectedContinuation: rejectedContinuation(trigger),
    };
    const promptTokens = usage.tokens + toolTokens + messageTokens(instructions);
    return { viewer, session, messages: [...head, ...historyMessages], facts, windowTokens, reserveTokens, promptTokens, omitted: history.omitted };
  }

  /** What a session's history starts from: a successor's manifest and opening message, a fork's fork point. */
  private origin(session: SessionEntity): Promise<[ProjectionManifestEntity | null, EventEntity | null, EventEntity | null]> {
    const manager = this.dataSource.manager;
    const successor = session.kind === SessionKind.CONTINUATION;
    return readInOneRoundTrip(manager, [
      successor ? successorManifest(manager, session.id) : answered(null),
      successor ? firstOf(eventsAtSeqs(manager, session.id, [2])) : answered(null),
      session.forkedFromEventId ? eventById(manager, session.forkedFromEventId) : answered(null),
    ]);
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
}

/** A turn's reads answered from what the worker holds (a successor it wrote), as the database would answer them. */
function readFromKnown(known: KnownTurn, range: { fromSeq: number; throughSeq: number }, afterTokens: number, citable: number[]) {
  const { events } = known;
  const own = events.filter((event) => event.seq >= range.fromSeq && event.seq <= range.throughSeq && event.tokenTotal > afterTokens);
  const earlier = events
    .filter((event) => event.kind === EventKind.USER_MESSAGE && event.seq < range.throughSeq)
    .slice(-EARLIER_USER_MESSAGES)
    .map((event) => event.text as string);
  const bounds = events.filter((event) => citable.includes(event.seq));
  return [own, [] as TailEvent[], earlier, known.plan, known.pendingRuns, bounds] as const;
}

/** A row a queued run names is gone: the run cannot start. */
function missing(what: string): never {
  throw new Error(`The run's ${what} does not exist`);
}

/** The rejection a turn answers, when its trigger is the runtime's note of one. */
function rejectedContinuation(trigger: EventEntity | null): TurnFacts['rejectedContinuation'] {
  const data = trigger?.kind === EventKind.SYSTEM ? (trigger.data as { role?: string; title?: string; note?: string | null } | null) : null;
  return data?.role === 'continuation_rejected' ? { title: data.title ?? '', note: data.note ?? null } : null;
}

interface HistoryPart {
  sessionId: string;
  /** The first seq of this part's history, and the tokens its session holds before it. */
  firstSeq: number;
  tokensBefore: number;
  /** Its loaded tail, oldest first. */
  events: TailEvent[];
  /** The last seq of the history, and the tokens its session holds through it. */
  throughSeq: number;
  throughTokens: number;
}

/**
 * The history that fits `allowance` as chat messages: the session's own newest events first (at
 * least the last, the message the turn answers), then a fork's inherited tail. What is left out
 * is listed in a note before them, as ranges the model can read back; a quarter of the room is
 * kept for excerpts of it that bear on the message (the unused rest of the tail's share too).
 */
function fittedHistory(input: {
  own: HistoryPart;
  inherited: HistoryPart | null;
  allowance: number;
  attached: ReadonlyMap<string, ModelAttachment>;
}): { messages: ModelMessage[]; omitted: OmittedRange[]; excerptAllowance: number } {
  const { own, inherited, attached } = input;
  const whole = [...(inherited?.events ?? []), ...own.events];
  const loadedWhole = [own, ...(inherited ? [inherited] : [])].every((part) => (part.events[0]?.seq ?? part.throughSeq + 1) <= part.firstSeq || part.throughSeq < part.firstSeq);
  const wholeMessages = transcriptMessages(whole, attached);
  if (loadedWhole && messagesTokens(wholeMessages) <= input.allowance) return { messages: wholeMessages, omitted: [], excerptAllowance: 0 };
  const reserved = Math.floor((input.allowance - OMISSION_NOTE_TOKENS) * EXCERPT_SHARE);
  const allowance = input.allowance - OMISSION_NOTE_TOKENS - reserved;
  let ownKept = tailWithin(own.events, allowance, attached, 1);
  const ownCost = ownKept.reduce((sum, event) => sum + eventContextTokens(event, attached), 0);
  let inheritedKept = inherited ? tailWithin(inherited.events, allowance - ownCost, attached, 0) : [];
  // The stored counts are close to what the messages cost; the rendered messages decide.
  let messages = transcriptMessages([...inheritedKept, ...ownKept], attached);
  while (messagesTokens(messages) > allowance && inheritedKept.length + ownKept.length > 1) {
    if (inheritedKept.length > 0) inheritedKept = inheritedKept.slice(1);
    else ownKept = ownKept.slice(1);
    messages = transcriptMessages([...inheritedKept, ...ownKept], attached);
  }
  const omitted = [
    ...(inherited ? omittedBefore(inherited, inheritedKept[0] ?? null) : []),
    ...omittedBefore(own, ownKept[0] ?? null),
  ];
  const note: ModelMessage = { role: 'system', content: omissionNote(omitted, !inherited || ownKept[0]?.seq !== own.firstSeq) };
  // What the kept history and the note leave of the whole allowance goes to the excerpts.
  const excerptAllowance = input.allowance - messagesTokens([note, ...messages]);
  if (omitted.length === 0) return { messages, omitted, excerptAllowance: 0 };
  return { messages: [note, ...messages], omitted, excerptAllowance };
}

/** The newest events whose cost fits `allowance`, at least `atLeast` of them. */
function tailWithin(events: TailEvent[], allowance: number, attached: ReadonlyMap<string, ModelAttachment>, atLeast: number): TailEvent[] {
  let used = 0;
  let first = events.length;
  while (first > 0) {
    const cost = eventContextTokens(events[first - 1], attached);
    if (used + cost > allowance && events.length - first >= atLeast) break;
    used += cost;
    first -= 1;
  }
  return events.slice(first);
}

/** The range of a part's history before its first kept event (all of it when none is kept). */
function omittedBefore(part: HistoryPart, firstKept: TailEvent | null): OmittedRange[] {
  const toSeq = firstKept ? firstKept.seq - 1 : part.throughSeq;
  if (toSeq < part.firstSeq) return [];
  const tokensThrough = firstKept ? firstKept.tokenTotal - firstKept.tokenCount : part.throughTokens;
  return [{ sessionId: part.sessionId, fromSeq: part.firstSeq, toSeq, tokens: tokensThrough - part.tokensBefore }];
}
