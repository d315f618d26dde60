import { DataSource, EntityManager } from 'typeorm';
import { ErrorCode, OperationFailure } from '../../../shared/errors';
import { sha256 } from '../../../shared/sha256';
import { Viewer } from '../../../shared/viewer';
import { recordAttachment } from '../../attachments/attachment.repository';
import { AttachmentEntity } from '../../attachments/attachment.entity';
import type { AttachmentService } from '../../attachments/attachments.service';
import { ContinuationEdgeEntity } from '../../continuation/continuation-edge.entity';
import { ProjectionManifestEntity } from '../../continuation/projection-manifest.entity';
import { EventEntity } from '../../conversation/event.entity';
import { SessionEntity } from '../../conversation/session.entity';
import { rootSession, sessionTitle } from '../../conversation/session-rows';
import { chainEvents } from '../../conversation/transcript.repository';
import { ContinuationApproval } from '../../conversation/sessions';
import { PlanRevisionEntity } from '../../plans/plan-revision.entity';
import { Bundle } from './bundle';
import { BundleRefusal, verifyBundle } from './bundle-verify';
import { DamagedZip, readZip } from './bundle-zip';
import { ImportKind, ImportRecordEntity } from './import-record.entity';
import { ImportedRows, importedRows, newIds } from './import-rows';
import { heldCids, importMemoryEntries, importResourceVersions } from './import.repository';
import { parseTranscript } from './transcript';
import { newRowId } from '../../../shared/ids';

/** What an import created: the session the bundle named (or the transcript's session) and every session. */
export interface Imported {
  rootSessionId: string;
  sessionIds: string[];
}

/** Why an import wrote nothing: a refused bundle (with why) or a transcript that is not one. */
export type ImportOutcome = { ok: true; value: Imported } | { ok: false; error: OperationFailure & { refusal?: BundleRefusal } };

/** Rows written per INSERT. */
const INSERT_BATCH = 500;
const REFUSAL_MESSAGES: Record<BundleRefusal, string> = {
  DAMAGED: 'The bundle is damaged',
  UNKNOWN_VERSION: 'The bundle is of a version this server does not read',
  NOT_VERIFYING: 'The bundle does not verify',
};

/**
 * Import: a bundle verified whole before anything is written, then recreated in the caller's
 * account in one transaction under new ids, every reference rewritten; or a conversation in the
 * OpenAI chat format as a new session. Either is searchable once committed, and remembered with
 * where it came from.
 */
export class ImportService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly attachments: AttachmentService,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** Imports a zip bundle. Fails with INVALID_INPUT (and the refusal: damaged, unknown version, not verifying), writing nothing. */
  async importBundle(viewer: Viewer, body: Buffer): Promise<ImportOutcome> {
    let files;
    try {
      files = await readZip(body, { maxEntries: 100_000, maxTotalBytes: 4 * Math.max(body.length, 1_048_576) });
    } catch (error) {
      if (!(error instanceof DamagedZip)) throw error;
      return refused(BundleRefusal.DAMAGED, [error.message]);
    }
    const check = verifyBundle(files);
    if (!check.ok) return refused(check.refusal, check.problems);
    const { bundle } = check;
    const staged = await this.stageAttachments(viewer, bundle);
    try {
      const imported = await this.dataSource.transaction((manager) => this.writeBundle(manager, viewer, bundle, staged));
      await this.attachments.unstage(staged.filter((each) => !imported.recorded.has(each.stored.cid)));
      return { ok: true, value: { rootSessionId: imported.rows.rootSessionId, sessionIds: imported.rows.sessions.map((session) => session.id) } };
    } catch (error) {
      await this.attachments.unstage(staged);
      throw error;
    }
  }

  /** Imports a conversation in the OpenAI chat format as a new session titled `title` (or by its first message). Fails with INVALID_INPUT. */
  async importTranscript(viewer: Viewer, body: Buffer, title: string | null): Promise<ImportOutcome> {
    let json: unknown;
    try {
      json = JSON.parse(body.toString('utf8'));
    } catch {
      return invalid('The body is not JSON: send a JSON array of { role, content } messages.', ['body']);
    }
    const parsed = parseTranscript(json);
    if (!parsed.ok) return { ok: false, error: { code: ErrorCode.INVALID_INPUT, message: parsed.details[0].message, details: parsed.details } };
    const named = title?.trim() || parsed.firstUserText?.split('\n')[0].trim() || 'Imported conversation';
    const session = rootSession({ accountId: viewer.accountId, title: sessionTitle(named), continuationApproval: ContinuationApproval.AUTOMATIC });
    const { events, totals } = chainEvents(session, parsed.events);
    Object.assign(session, totals);
    await this.dataSource.transaction(async (manager) => {
      await manager.insert(SessionEntity, session);
      await insertInBatches(manager, EventEntity, events);
      await this.remember(manager, viewer, 'TRANSCRIPT', session.id, [session.id], sha256(body), { format: 'openai-chat', messages: (json as unknown[]).length });
    });
    return { ok: true, value: { rootSessionId: session.id, sessionIds: [session.id] } };
  }

  /** Stores the bytes of the bundle's attachments the account does not hold yet, before the transaction (storage writes on its own connections). */
  private async stageAttachments(viewer: Viewer, bundle: Bundle) {
    const held = await heldCids(this.dataSource.manager, viewer.accountId, bundle.attachments.map((attachment) => attachment.cid));
    const staged: Awaited<ReturnType<AttachmentService['stage']>>[] = [];
    try {
      for (const attachment of bundle.attachments) {
        if (!held.has(attachment.cid)) staged.push(await this.attachments.stage(bundle.attachmentBytes.get(attachment.cid)!));
      }
    } catch (error) {
      await this.attachments.unstage(staged);
      throw error;
    }
    return staged;
  }

  private async writeBundle(manager: EntityManager, viewer: Viewer, bundle: Bundle, staged: Awaited<ReturnType<AttachmentService['stage']>>[]) {
    const accountId = viewer.accountId;
    const recorded = new Set<string>();
    for (const { storage, stored } of staged) {
      const attachment = bundle.attachments.find((candidate) => candidate.cid === stored.cid)!;
      const row = Object.assign(new AttachmentEntity(), { ...attachment, accountId, storage, storageKey: stored.key, createdAt: this.clock() });
      if (await recordAttachment(manager, row)) recorded.add(stored.cid);
    }
    const versions = await importResourceVersions(manager, accountId, bundle.resourceVersions);
    await importMemoryEntries(manager, accountId, bundle.memoryEntries);
    const rows = importedRows(bundle, accountId, newIds(bundle), versions);
    await this.insertRows(manager, rows);
    const source = { ...bundle.header, checksumsSha256: bundle.sha256 };
    await this.remember(manager, viewer, 'BUNDLE', rows.rootSessionId, rows.sessions.map((session) => session.id), bundle.sha256, source);
    return { rows, recorded };
  }

  private async insertRows(manager: EntityManager, rows: ImportedRows): Promise<void> {
    // Every session first (origins and parents name each other), then what refers to them.
    await insertInBatches(manager, SessionEntity, rows.sessions);
    await insertInBatches(manager, EventEntity, rows.events);
    await insertInBatches(manager, ContinuationEdgeEntity, rows.edges);
    await insertInBatches(manager, ProjectionManifestEntity, rows.manifests);
    await insertInBatches(manager, PlanRevisionEntity, rows.plans);
  }

  private async remember(manager: EntityManager, viewer: Viewer, kind: ImportKind, rootSessionId: string, sessionIds: string[], sourceSha256: string, source: object) {
    const record = { id: newRowId(), accountId: viewer.accountId, kind, rootSessionId, sessionIds, sourceSha256, source, createdAt: this.clock() };
    await manager.insert(ImportRecordEntity, record);
  }
}

async function insertInBatches<T extends object>(manager: EntityManager, target: new () => T, rows: T[]): Promise<void> {
  for (let start = 0; start < rows.length; start += INSERT_BATCH) {
    await manager.insert(target, rows.slice(start, start + INSERT_BATCH) as never);
  }
}

function refused(refusal: BundleRefusal, problems: string[]): ImportOutcome {
  const message = `${REFUSAL_MESSAGES[refusal]}: ${problems[0]}`;
  return { ok: false, error: { code: ErrorCode.INVALID_INPUT, message, details: problems.map((problem) => ({ path: ['body'], message: problem })), refusal } };
}

function invalid(message: string, path: string[]): ImportOutcome {
  return { ok: false, error: { code: ErrorCode.INVALID_INPUT, message, details: [{ path, message }] } };
}
