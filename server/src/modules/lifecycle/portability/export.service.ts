import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { DataSource } from 'typeorm';
import { ZipFile } from 'yazl';
import { Outcome, notFound, succeed } from '../../../shared/errors';
import { isId } from '../../../shared/ids';
import { Viewer } from '../../../shared/viewer';
import { logger } from '../../../platform/observability/logger';
import type { AttachmentEntity } from '../../attachments/attachment.entity';
import type { AttachmentService } from '../../attachments/attachments.service';
import { coveredSessions } from '../erasure/erasure.repository';
import { BUNDLE_FORMAT, BUNDLE_VERSION, BundleFile, BundleHeader, BundleManifest, BundleScope, BundleSession, attachmentFile, checksumLine } from './bundle';
import {
  exportedAttachments,
  exportedEdges,
  exportedEvents,
  exportedManifests,
  exportedMemoryEntries,
  exportedPlans,
  exportedResourceVersions,
  exportedSessions,
  newestVersions,
} from './export.repository';

/** A bundle on its way out: its zip bytes as produced, and the file name to offer. */
export interface ExportStream {
  stream: Readable;
  fileName: string;
}

const line = (record: unknown) => `${JSON.stringify(record)}\n`;

/** What the manifests cite outside the transcripts, gathered to export beside them. */
interface Cited {
  resources: Map<string, { url: string; version: string }>;
  memories: Map<string, { path: string; cid: string }>;
  cids: Set<string>;
}

/**
 * Export: a session or its lineage as a zip bundle (docs/bundle-format.md), streamed as it is
 * produced. Events are read a page at a time and each file is written only once the zip has
 * taken the one before, so memory stays flat however long the lineage. Sessions are read first
 * and their events only up to the counts read then: what is appended meanwhile waits for the next
 * export, and the bundle stays whole.
 */
export class ExportService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly attachments: AttachmentService,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** The bundle of `sessionId` (or its lineage); NOT_FOUND for a session that is not the viewer's. */
  async exportBundle(viewer: Viewer, sessionId: string, scope: BundleScope): Promise<Outcome<ExportStream>> {
    if (!isId(sessionId)) return notFound('session', ['sessionId']);
    const sessionIds = await coveredSessions(this.dataSource.manager, viewer.accountId, sessionId, scope === BundleScope.LINEAGE);
    if (sessionIds.length === 0) return notFound('session', ['sessionId']);
    const sessions = await exportedSessions(this.dataSource.manager, viewer.accountId, sessionIds);
    const exportedAt = this.clock();
    const header: BundleHeader = { format: BUNDLE_FORMAT, version: BUNDLE_VERSION, scope, rootSessionId: sessionId, sessionIds: sessions.map((session) => session.id), exportedAt: exportedAt.toISOString() };
    const zip = new ZipFile();
    this.produce(zip, viewer.accountId, header, sessions, exportedAt).catch((error: unknown) => {
      logger.error({ err: error, sessionId }, 'Export failed while streaming; the bundle was cut short');
      (zip.outputStream as Readable).destroy(error as Error);
    });
    return succeed({ stream: zip.outputStream as Readable, fileName: `${scope.toLowerCase()}-${sessionId}.zip` });
  }

  private async produce(zip: ZipFile, accountId: string, header: BundleHeader, sessions: BundleSession[], mtime: Date): Promise<void> {
    const manager = this.dataSource.manager;
    const sums: string[] = [];
    const put = async (name: string, pieces: AsyncIterable<string | Buffer> | Iterable<string | Buffer>, knownSha256?: string) => {
      const stream = new PassThrough();
      const hash = createHash('sha256');
      zip.addReadStream(stream, name, { mtime, compress: !name.startsWith('attachments/') });
      for await (const piece of pieces) {
        const bytes = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece;
        if (!knownSha256) hash.update(bytes);
        if (!stream.write(bytes)) await once(stream, 'drain');
      }
      stream.end();
      await finished(stream);
      sums.push(checksumLine(knownSha256 ?? hash.digest('hex'), name));
    };
    const cited: Cited = { resources: new Map(), memories: new Map(), cids: new Set() };
    await put(BundleFile.HEADER, [`${JSON.stringify(header, null, 2)}\n`]);
    await put(BundleFile.SESSIONS, sessions.map(line));
    await put(BundleFile.EVENTS, this.eventLines(sessions, cited));
    const sessionIds = sessions.map((session) => session.id);
    const edges = await exportedEdges(manager, accountId, sessionIds);
    await put(BundleFile.EDGES, edges.map(line));
    const manifests = await exportedManifests(manager, edges.map((edge) => edge.id));
    const resolved = await this.resolveItems(accountId, manifests, new Set(sessionIds), cited);
    await put(BundleFile.MANIFESTS, resolved.map(line));
    await put(BundleFile.PLANS, (await exportedPlans(manager, sessionIds)).map(line));
    await put(BundleFile.RESOURCE_VERSIONS, (await exportedResourceVersions(manager, accountId, [...cited.resources.values()])).map(line));
    await put(BundleFile.MEMORY_ENTRIES, (await exportedMemoryEntries(manager, accountId, [...cited.memories.values()])).map(line));
    const attachments = await exportedAttachments(manager, accountId, [...cited.cids]);
    await put(BundleFile.ATTACHMENTS, attachments.map(({ cid, name, mediaType, byteSize }) => line({ cid, name, mediaType, byteSize })));
    for (const attachment of attachments) {
      await put(attachmentFile(attachment.cid), await this.attachments.open(attachment as unknown as AttachmentEntity), attachment.cid);
    }
    zip.addBuffer(Buffer.from(sums.join(''), 'utf8'), BundleFile.CHECKSUMS, { mtime });
    zip.end();
  }

  /** Every session's events, a page at a time, up to the count read with the session; the cids they link are noted. */
  private async *eventLines(sessions: BundleSession[], cited: Cited): AsyncGenerator<string> {
    for (const session of sessions) {
      for (let afterSeq = 0; afterSeq < session.eventCount; ) {
        const page = await exportedEvents(this.dataSource.manager, session.id, afterSeq, session.eventCount);
        if (page.length === 0) break;
        for (const event of page) {
          for (const cid of event.attachmentCids) cited.cids.add(cid);
          yield line(event);
        }
        afterSeq = page[page.length - 1].seq;
      }
    }
  }

  /** Each manifest with the indexes of its items whose source the bundle will not hold; what it cites is noted to export. */
  private async resolveItems(accountId: string, manifests: Omit<BundleManifest, 'outside'>[], sessionIds: Set<string>, cited: Cited): Promise<BundleManifest[]> {
    const manager = this.dataSource.manager;
    const items = manifests.flatMap((manifest) => manifest.items);
    const latest = await newestVersions(manager, accountId, [...new Set(items.filter((item) => item.kind === 'RESOURCE' && item.version == null).map((item) => item.url!))]);
    const wantedVersions = [...items.filter((item) => item.kind === 'RESOURCE' && item.version != null).map((item) => ({ url: item.url!, version: item.version! })), ...latest];
    const versions = new Set((await exportedResourceVersions(manager, accountId, wantedVersions)).map((version) => `${version.url}\u0000${version.version}`));
    const urls = new Set([...versions].map((key) => key.split('\u0000')[0]));
    const wantedMemories = items.filter((item) => item.kind === 'MEMORY').map((item) => ({ path: item.path!, cid: item.cid! }));
    const memories = new Set((await exportedMemoryEntries(manager, accountId, wantedMemories)).map((entry) => `${entry.path}\u0000${entry.cid}`));
    const attachmentCids = new Set((await exportedAttachments(manager, accountId, items.filter((item) => item.kind === 'ATTACHMENT').map((item) => item.cid!))).map((row) => row.cid));
    const manifestIds = new Set(manifests.map((manifest) => manifest.id));
    return manifests.map((manifest) => {
      const outside: number[] = [];
      manifest.items.forEach((item, index) => {
        let inside = item.handoffManifestId == null || manifestIds.has(item.handoffManifestId);
        if (item.kind === 'SESSION_EVENTS' || item.kind === 'SESSION_EVENT') inside &&= typeof item.sessionId === 'string' && sessionIds.has(item.sessionId);
        else if (item.kind === 'RESOURCE') inside &&= item.version == null ? urls.has(item.url!) : versions.has(`${item.url}\u0000${item.version}`);
        else if (item.kind === 'MEMORY') inside &&= memories.has(`${item.path}\u0000${item.cid}`);
        else if (item.kind === 'ATTACHMENT') inside &&= attachmentCids.has(item.cid!);
        if (!inside) return void outside.push(index);
        if (item.kind === 'RESOURCE') {
          const version = item.version ?? latest.find((each) => each.url === item.url)!.version;
          cited.resources.set(`${item.url}\u0000${version}`, { url: item.url!, version });
        }
        if (item.kind === 'MEMORY') cited.memories.set(`${item.path}\u0000${item.cid}`, { path: item.path!, cid: item.cid! });
        if (item.kind === 'ATTACHMENT') cited.cids.add(item.cid!);
      });
      return { ...manifest, outside };
    });
  }
}
