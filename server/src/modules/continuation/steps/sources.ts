import { EntityManager } from 'typeorm';
import { ContinueSessionRequest, PlanTransfer, SourceKind, TransferredState } from '../continuations';
import { ErrorCode, ErrorDetail } from '../../../shared/errors';
import { EventRangeRead, ProjectedEvent, ProjectionSourceReader, ResolvedEventSource, ResolvedSource, readStart } from '../projection/model';
import { attachmentItem } from '../projection/manifest';
import { AttachmentReference } from '../../attachments/attachments';
import { EventKind } from '../../conversation/transcript';
import { EventEntity } from '../../conversation/event.entity';
import { PlanRevisionEntity } from '../../plans/plan-revision.entity';
import { SessionEntity } from '../../conversation/session.entity';
import { readEventRanges } from '../continuation.repository';
import { latestPlan } from '../../plans/plan.repository';
import { ContentPin, resolveContentSource } from '../content-source.repository';
import { Viewer } from '../../../shared/viewer';
import { AGENT_TOOLS, isAgentTool } from '../../../shared/agent-tools';
import { refuse } from './refusal';


export function projected(event: EventEntity): ProjectedEvent {
  return {
    id: event.id,
    sessionId: event.sessionId,
    seq: event.seq,
    kind: event.kind,
    text: event.text,
    data: event.data,
    tokenCount: event.tokenCount,
    tokenTotal: event.tokenTotal,
    hash: event.hash,
    attachmentCids: event.attachmentCids,
  };
}

/** An attachment a continuation cites, read before its transaction: the reference, and a small text attachment's content. */
export interface CitedAttachment {
  reference: AttachmentReference;
  excerpt: string | null;
}

/**
 * Reads event ranges for the compiler: those `prefetched` holds (as much of each as asked) are
 * answered from it, the others in one query.
 */
export function eventReader(manager: EntityManager, prefetched: EventEntity[] = []): ProjectionSourceReader {
  const held = new Map<string, ProjectedEvent>();
  const hold = (events: EventEntity[]) => events.forEach((event) => held.set(`${event.sessionId}:${event.seq}`, projected(event)));
  hold(prefetched);
  const fromHeld = (read: EventRangeRead): ProjectedEvent[] | null => {
    const start = readStart(read, (seq) => held.get(`${read.sessionId}:${seq}`));
    if (start === null) return null;
    const events: ProjectedEvent[] = [];
    for (let seq = start; seq <= read.toSeq; seq++) events.push(held.get(`${read.sessionId}:${seq}`)!);
    return events;
  };
  return {
    async eventsInRanges(reads) {
      const missing = reads.filter((read) => fromHeld(read) === null);
      if (missing.length) hold(await readEventRanges(manager, missing));
      return reads.map((read) => fromHeld(read) ?? []);
    },
  };
}

/**
 * Every cited source must exist in the viewer's account: events in one session and in order,
 * resources and memory pinned to what they resolve to now, attachments among `attachments` (the
 * viewer's, read beforehand). Refuses with SOURCE_NOT_FOUND.
 */
export async function resolveSources(
  manager: EntityManager,
  viewer: Viewer,
  input: ContinueSessionRequest,
  citedEvents: EventEntity[],
  attachments: ReadonlyMap<string, CitedAttachment>,
): Promise<ResolvedSource[]> {
  const byId = new Map(citedEvents.map((event) => [event.id, event]));
  const missing: ErrorDetail[] = [];
  const sources: ResolvedSource[] = [];
  for (const [index, source] of input.sources.entries()) {
    const path = ['input', 'sources', String(index)];
    if (source.kind === SourceKind.ATTACHMENT) {
      const cited = attachments.get(source.cid ?? '');
      if (cited) sources.push({ type: 'ATTACHMENT', item: attachmentItem(source.relevance, cited.reference.cid), ...cited });
      else missing.push({ path: [...path, 'cid'], message: 'No such attachment in this account.' });
      continue;
    }
    if (source.kind === SourceKind.RESOURCE || source.kind === SourceKind.MEMORY) {
      const content = await resolveContentSource(manager, viewer.accountId, source);
      if (content) sources.push(content);
      else missing.push({ path, message: `No such ${source.kind === SourceKind.RESOURCE ? 'resource version or block' : 'memory entry'} in this account.` });
      continue;
    }
    const single = source.kind === SourceKind.SESSION_EVENT;
    const first = byId.get((single ? source.eventId : source.fromEventId) ?? '');
    const last = byId.get((single ? source.eventId : source.toEventId) ?? '');
    if (!first || !last || first.sessionId !== source.sessionId || last.sessionId !== source.sessionId) {
      missing.push({ path, message: 'No such event in that session.' });
    } else if (first.seq > last.seq) {
      missing.push({ path: [...path, 'fromEventId'], message: 'fromEventId comes after toEventId.' });
    } else {
      sources.push({ type: 'EVENTS', input: source, first: projected(first), last: projected(last), handoffManifestId: null });
    }
  }
  if (missing.length > 0) {
    refuse(ErrorCode.SOURCE_NOT_FOUND, 'A cited source does not exist in this account.', missing);
  }
  await nameHandoffManifests(manager, viewer, sources);
  return sources;
}

/** A range from a successor's first event cites its banner: name the manifest behind that handoff. */
async function nameHandoffManifests(manager: EntityManager, viewer: Viewer, sources: ResolvedSource[]): Promise<void> {
  const opening = sources.filter(
    (source): source is ResolvedEventSource => source.type === 'EVENTS' && source.first.seq === 1 && source.first.kind === EventKind.CONTINUATION,
  );
  if (opening.length === 0) return;
  const manifests: { successor_id: string; id: string }[] = await manager.query(
    `SELECT edge.successor_id, manifest.id FROM continuation_edges edge
     JOIN projection_manifests manifest ON manifest.edge_id = edge.id
     WHERE edge.account_id = $1 AND edge.successor_id = ANY($2::uuid[])`,
    [viewer.accountId, [...new Set(opening.map((source) => source.first.sessionId))]],
  );
  const bySuccessor = new Map(manifests.map((row) => [row.successor_id, row.id]));
  for (const source of opening) source.handoffManifestId = bySuccessor.get(source.first.sessionId) ?? null;
}

/** What the successor receives of the predecessor's structured state; the plan must exist and be open to move. */
export async function transferredState(
  manager: EntityManager,
  viewer: Viewer,
  predecessor: SessionEntity,
  input: ContinueSessionRequest,
  pendingRunIds: string[],
): Promise<{ state: TransferredState; plan: PlanRevisionEntity | null; pins: ContentPin[] }> {
  const transfer = input.transfer;
  const mode = transfer?.plan ?? PlanTransfer.OMIT;
  const plan = mode === PlanTransfer.OMIT ? null : await latestPlan(manager, predecessor.id);
  if (mode !== PlanTransfer.OMIT && (!plan || plan.closed)) {
    refuse(ErrorCode.INVALID_INPUT, plan ? 'The plan is already closed: there is nothing to carry or close.' : 'The session has no plan to carry or close.', [
      { path: ['input', 'transfer', 'plan'], message: plan ? `Plan revision ${plan.revision} is closed.` : 'The session has no plan.' },
    ]);
  }
  const unknownTools = (transfer?.pinnedTools ?? []).filter((tool) => !isAgentTool(tool));
  if (unknownTools.length > 0) {
    refuse(ErrorCode.INVALID_INPUT, `Unknown tools cannot be pinned: ${unknownTools.join(', ')}.`, [
      { path: ['input', 'transfer', 'pinnedTools'], message: `Known tools: ${AGENT_TOOLS.join(', ')}.` },
    ]);
  }
  const pins: ContentPin[] = [];
  const missing: ErrorDetail[] = [];
  for (const [index, ref] of (transfer?.pinnedResources ?? []).entries()) {
    const pin = await resolveContentSource(manager, viewer.accountId, {
      kind: SourceKind.RESOURCE,
      relevance: 'a pinned resource',
      url: ref.url,
      version: ref.version,
      blockId: ref.blockId,
    });
    if (pin) pins.push(pin);
    else missing.push({ path: ['input', 'transfer', 'pinnedResources', String(index)], message: 'No such resource version or block.' });
  }
  if (missing.length > 0) refuse(ErrorCode.SOURCE_NOT_FOUND, 'A pinned resource does not exist in this account.', missing);
  return {
    state: {
      plan: mode,
      planRevision: plan?.revision ?? null,
      pendingRunIds,
      pinnedTools: [...new Set(transfer?.pinnedTools ?? [])],
      // Pins carry the exact version they resolved to; a revoked one stays behind as a broken breadcrumb.
      pinnedResources: pins.filter((pin) => pin.type === 'CONTENT').map(({ item }) => ({ url: item.url!, version: item.version, blockId: item.blockId })),
    },
    plan,
    pins,
  };
}
