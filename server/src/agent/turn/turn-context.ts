import { DataSource, In } from 'typeorm';
import { runtimeViewer } from '../../modules/accounts/account.repository';
import { isImageMediaType } from '../../modules/attachments/attachments';
import { AttachmentService, attachmentReference } from '../../modules/attachments/attachments.service';
import { ProjectionManifestEntity } from '../../modules/continuation/projection-manifest.entity';
import { ContextUsage, contextTokens } from '../../modules/conversation/context-usage';
import { EventEntity } from '../../modules/conversation/event.entity';
import { RunEntity } from '../../modules/conversation/run.entity';
import { ACTIVE_RUN_STATUSES, RunKind } from '../../modules/conversation/runs';
import { SessionEntity } from '../../modules/conversation/session.entity';
import { SessionKind } from '../../modules/conversation/sessions';
import { EventKind } from '../../modules/conversation/transcript';
import { transcriptTail, userMessageTextsBefore } from '../../modules/conversation/transcript.repository';
import { latestPlan } from '../../modules/plans/plan.repository';
import type { Viewer } from '../../shared/viewer';
import type { ModelAttachment, ModelMessage, ModelProvider, TurnFacts } from '../agent';
import { agentInstructions, projectedMessages, transcriptMessages } from '../model-context';

/** What one turn of a session starts from: the messages for the model and the facts about them. */
export interface TurnStart {
  viewer: Viewer;
  session: SessionEntity;
  messages: ModelMessage[];
  facts: TurnFacts;
}

export interface ContextSettings {
  /** The model's context window, in tokens of the server's tokenizer. */
  windowTokens: number;
  /** Share of the window from which a continuation is advised. */
  threshold: number;
}

const EARLIER_USER_MESSAGES = 6;
/** Images larger than this are given to a model by reference only (OpenAI takes images of up to 20 MB). */
const MODEL_IMAGE_MAX_BYTES = 20 * 1024 * 1024;
/** Text files larger than this are given to a model by reference only; read_attachment reads their start. */
const MODEL_TEXT_MAX_BYTES = 64 * 1024;

/** Loads a run's turn: the model's context and the facts about it. */
export class TurnContextLoader {
  constructor(
    private readonly dataSource: DataSource,
    private readonly attachments: AttachmentService,
    private readonly provider: Pick<ModelProvider, 'readsAttachments'>,
    private readonly settings: ContextSettings,
  ) {}

  /** The model's context for the run's turn, loaded in O(window): the projection for a successor, the transcript's tail otherwise. */
  async turnStart(run: RunEntity): Promise<TurnStart> {
    const manager = this.dataSource.manager;
    const sessionId = run.kind === RunKind.DELEGATED ? run.childSessionId! : run.sessionId;
    const [session, viewer, trigger] = await Promise.all([
      manager.findOneByOrFail(SessionEntity, { id: sessionId }),
      runtimeViewer(manager, run.accountId),
      run.triggerEventId ? manager.findOneByOrFail(EventEntity, { id: run.triggerEventId }) : Promise.resolve(null),
    ]);
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
    // The range a handoff would cite: the session's first event through the one before the message.
    const citable = trigger && trigger.seq > 1 ? [1, trigger.seq - 1] : [];
    // Everything else the turn reads depends only on what is known by now: one round trip for all of it.
    const [own, inherited, earlier, plan, pending, bounds] = await Promise.all([
      transcriptTail(manager, session.id, { fromSeq: firstOwnSeq, throughSeq }, throughTokens - this.settings.windowTokens),
      // A fork's own events come first in the window; its inherited history fills what is left.
      forkPoint
        ? transcriptTail(manager, forkPoint.sessionId, { fromSeq: 1, throughSeq: forkPoint.seq }, forkPoint.tokenTotal - (this.settings.windowTokens - throughTokens))
        : [],
      userMessageTextsBefore(manager, session.id, throughSeq, EARLIER_USER_MESSAGES),
      latestPlan(manager, session.id),
      manager.find(RunEntity, { where: { sessionId: session.id, kind: RunKind.DELEGATED, status: In(ACTIVE_RUN_STATUSES) } }),
      citable.length ? manager.find(EventEntity, { where: { sessionId: session.id, seq: In(citable) }, order: { seq: 'ASC' } }) : [],
    ]);
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
}

/** The rejection a turn answers, when its trigger is the runtime's note of one. */
function rejectedContinuation(trigger: EventEntity | null): TurnFacts['rejectedContinuation'] {
  const data = trigger?.kind === EventKind.SYSTEM ? (trigger.data as { role?: string; title?: string; note?: string | null } | null) : null;
  return data?.role === 'continuation_rejected' ? { title: data.title ?? '', note: data.note ?? null } : null;
}
