import { ContinuationEdgeEntity } from '../../continuation/continuation-edge.entity';
import { ManifestContent, manifestHash } from '../../continuation/projection/manifest';
import { sha256 } from '../../../shared/sha256';
import { ProjectionManifestEntity } from '../../continuation/projection-manifest.entity';
import { EventEntity } from '../../conversation/event.entity';
import { SessionEntity } from '../../conversation/session.entity';
import { GENESIS_HASH, eventHash, eventTokenCount } from '../../conversation/transcript';
import type { EventKind } from '../../conversation/transcript';
import type { ContinuationApproval, SessionKind, SessionStatus } from '../../conversation/sessions';
import { PlanRevisionEntity } from '../../plans/plan-revision.entity';
import type { Bundle, BundleEvent, BundleManifest, BundleSession } from './bundle';
import { IdRewriter, VersionMap, renumberVersion } from './import-ids';
import { newRowId } from '../../../shared/ids';
import { SECTION_SEPARATOR } from '../../continuation/projection/render';
import { countJoinedTokens, countTokens } from '../../../shared/tokens';

/** A bundle's records as rows of the importing account: new ids, every reference rewritten, hash chains and manifest hashes computed anew. */
export interface ImportedRows {
  sessions: SessionEntity[];
  events: EventEntity[];
  edges: ContinuationEdgeEntity[];
  manifests: ProjectionManifestEntity[];
  plans: PlanRevisionEntity[];
  rootSessionId: string;
}

const date = (value: string | null) => (value === null ? null : new Date(value));

/** A new id for every session, event, edge, manifest and plan revision the bundle holds. */
export function newIds(bundle: Bundle): IdRewriter {
  const ids = new Map<string, string>();
  for (const records of [bundle.sessions, bundle.events, bundle.edges, bundle.manifests, bundle.plans]) {
    for (const record of records) ids.set(record.id, newRowId());
  }
  return new IdRewriter(ids);
}

/**
 * The rows to write. A session whose parent, fork point or lineage lies outside the bundle becomes
 * a root of its own lineage, and one whose successors are outside it is ACTIVE again: the importing
 * account holds only what the bundle holds.
 */
export function importedRows(bundle: Bundle, accountId: string, ids: IdRewriter, versions: VersionMap): ImportedRows {
  const successors = new Set(bundle.edges.map((edge) => edge.predecessorId));
  const sessions = bundle.sessions.map((session) => importedSession(session, accountId, ids, successors.has(session.id)));
  const depthOf = new Map(sessions.map((session) => [session.id, session.lineageDepth]));
  const events = importedEvents(bundle, sessions, accountId, ids);
  const edges = bundle.edges.map((edge) =>
    Object.assign(new ContinuationEdgeEntity(), {
      id: ids.id(edge.id),
      accountId,
      predecessorId: ids.id(edge.predecessorId),
      predecessorDepth: depthOf.get(ids.id(edge.predecessorId)),
      successorId: ids.id(edge.successorId),
      successorDepth: depthOf.get(ids.id(edge.successorId)),
      reason: edge.reason,
      actor: edge.actor,
      initiatingEventId: ids.id(edge.initiatingEventId),
      idempotencyKey: `import:${ids.id(edge.id)}`,
      requestFingerprint: sha256(`import:${edge.id}`),
      createdAt: new Date(edge.createdAt),
    }),
  );
  const manifests = bundle.manifests.map((manifest) => importedManifest(manifest, accountId, ids, versions));
  const plans = bundle.plans.map((plan) =>
    Object.assign(new PlanRevisionEntity(), {
      id: ids.id(plan.id),
      accountId,
      sessionId: ids.id(plan.sessionId),
      revision: plan.revision,
      closed: plan.closed,
      steps: ids.value(plan.steps),
      createdAt: new Date(plan.createdAt),
      erasedAt: date(plan.erasedAt),
    }),
  );
  return { sessions, events, edges, manifests, plans, rootSessionId: ids.id(bundle.header.rootSessionId) };
}

function importedSession(session: BundleSession, accountId: string, ids: IdRewriter, hasSuccessor: boolean): SessionEntity {
  const id = ids.id(session.id);
  const origin = ids.inside(session.originId);
  const parent = ids.inside(session.parentId);
  const forkPoint = ids.inside(session.forkedFromEventId);
  const ownRoot = (session.kind === 'CHILD' && !parent) || (session.kind === 'FORK' && !forkPoint);
  return Object.assign(new SessionEntity(), {
    id,
    accountId,
    kind: (ownRoot ? 'ROOT' : session.kind) as SessionKind,
    status: (session.status === 'CONTINUED' && !hasSuccessor ? 'ACTIVE' : session.status) as SessionStatus,
    title: session.title,
    description: session.description,
    createdAt: new Date(session.createdAt),
    eventCount: session.eventCount,
    tokenCount: session.tokenCount,
    originId: origin ?? id,
    lineageDepth: origin ? session.lineageDepth : 0,
    continuationStreak: session.continuationStreak,
    parentId: ownRoot ? null : parent,
    forkedFromEventId: ownRoot ? null : forkPoint,
    continuationApproval: session.continuationApproval as ContinuationApproval,
    lastEventHash: GENESIS_HASH,
    erasedAt: date(session.erasedAt),
  });
}

/** Each session's events in order, chained anew under their new ids; an erased event's hash is computed over what it still holds. */
function importedEvents(bundle: Bundle, sessions: SessionEntity[], accountId: string, ids: IdRewriter): EventEntity[] {
  const bySession = new Map<string, BundleEvent[]>();
  for (const event of bundle.events) {
    const list = bySession.get(event.sessionId);
    if (list) list.push(event);
    else bySession.set(event.sessionId, [event]);
  }
  const originalOf = new Map(bundle.sessions.map((original) => [ids.id(original.id), original]));
  const events: EventEntity[] = [];
  for (const session of sessions) {
    let previousHash = GENESIS_HASH;
    let tokens = 0;
    const original = originalOf.get(session.id)!;
    const sessionEvents = bySession.get(original.id) ?? [];
    for (const event of sessionEvents) {
      const text = ids.text(event.text);
      const data = ids.value(event.data ?? null) as object | null;
      // Counted here rather than taken from the bundle: ids rewritten in a text count differently,
      // and budgets and model requests rely on the counts. An erased event's text is gone; the
      // count it had stays, as it does in the totals after it.
      const tokenCount = event.erasedAt ? event.tokenCount : eventTokenCount(text, data);
      tokens += tokenCount;
      const imported = Object.assign(new EventEntity(), {
        id: ids.id(event.id),
        sessionId: session.id,
        accountId,
        seq: event.seq,
        kind: event.kind as EventKind,
        text,
        data,
        toolCallId: event.toolCallId,
        tokenCount,
        tokenTotal: tokens,
        replayOfId: ids.inside(event.replayOfId),
        clientMessageId: event.clientMessageId,
        createdAt: new Date(event.createdAt),
        attachmentCids: event.attachmentCids,
        erasedAt: date(event.erasedAt),
      });
      imported.hash = eventHash(previousHash, imported);
      previousHash = imported.hash;
      events.push(imported);
    }
    session.lastEventHash = previousHash;
    if (sessionEvents.length > 0) session.tokenCount = tokens;
  }
  return events;
}

interface CountedSection {
  text: string;
  tokenCount: number;
}

const isCountedSection = (value: unknown): value is CountedSection =>
  typeof value === 'object' && value !== null && typeof (value as Partial<CountedSection>).text === 'string';

/**
 * A compiled context as imported, each section counted anew from its text, and the context's cost
 * with them: ids rewritten in a text count differently, and a successor's turns take the sections'
 * counts. An erased manifest's texts are gone, and its counts stay as recorded, as erasure keeps
 * them.
 */
function recountedContext(context: unknown, tokenCost: number, erased: boolean): { context: unknown; tokenCost: number } {
  if (erased || !Array.isArray(context) || !context.every(isCountedSection)) return { context, tokenCost };
  const sections = context.map((section) => ({ ...section, tokenCount: countTokens(section.text) }));
  return { context: sections, tokenCost: countJoinedTokens(sections.map(({ text, tokenCount }) => ({ text, tokens: tokenCount })), SECTION_SEPARATOR) };
}

function importedManifest(manifest: BundleManifest, accountId: string, ids: IdRewriter, versions: VersionMap): ProjectionManifestEntity {
  const renumbered = (list: unknown) => (Array.isArray(list) ? list.map((entry) => renumberVersion(entry, versions)) : list);
  const transferred = ids.value(manifest.transferredState) as { pinnedResources?: unknown } | null;
  const content: ManifestContent = {
    id: ids.id(manifest.id),
    edgeId: ids.id(manifest.edgeId),
    predecessorId: ids.id(manifest.predecessorId),
    successorId: ids.id(manifest.successorId),
    originId: ids.id(manifest.originId),
    initiatingEventId: ids.id(manifest.initiatingEventId),
    actor: manifest.actor,
    reason: manifest.reason,
    handoff: ids.value(manifest.handoff),
    sources: renumbered(ids.value(manifest.sources)),
    items: renumbered(ids.value(manifest.items)),
    transferredState: transferred && typeof transferred === 'object' ? { ...transferred, pinnedResources: renumbered(transferred.pinnedResources ?? []) } : transferred,
    lineageBlock: ids.text(manifest.lineageBlock),
    ...recountedContext(ids.value(manifest.context), manifest.tokenCost, manifest.erasedAt !== null),
    compilerVersion: manifest.compilerVersion,
    modelVersion: manifest.modelVersion,
    tokenBudget: manifest.tokenBudget,
    createdAt: manifest.createdAt,
    ...(manifest.proposal !== undefined && manifest.proposal !== null ? { proposal: ids.value(manifest.proposal) } : {}),
  };
  return Object.assign(new ProjectionManifestEntity(), {
    proposal: null,
    ...content,
    accountId,
    createdAt: new Date(manifest.createdAt),
    hash: manifestHash(content),
    erasedAt: date(manifest.erasedAt),
  });
}
