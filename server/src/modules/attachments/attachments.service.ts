import { Readable } from 'node:stream';
import { DataSource } from 'typeorm';
import { AttachmentReference, isCid, isTextMediaType, mediaTypeOf, validateAttachmentName } from './attachments';
import { ErrorCode, OperationFailure } from '../../shared/errors';
import { storableText } from '../../shared/text';
import { AttachmentEntity } from './attachment.entity';
import { findAttachments, recordAttachment } from './attachment.repository';
import { AttachmentStorage, BlobTooLarge, StoredBlob } from './storage/attachment-storage';
import { alignOne } from '../../shared/batch';
import { Viewer } from '../../shared/viewer';
import { logger } from '../../platform/observability/logger';

/** An upload as the HTTP route receives it. */
export interface AttachmentUpload {
  name: string | undefined;
  contentType: string | undefined;
  /** The declared length, when the request declares one: over the limit is refused before reading. */
  contentLength: number | undefined;
  body: AsyncIterable<Uint8Array>;
}

/**
 * What an upload did: stored (CREATED), found the account holding these bytes already (EXISTING),
 * or refused, storing nothing: a bad name (INVALID), a missing or malformed media type
 * (UNSUPPORTED_TYPE), more bytes than the limit (TOO_LARGE).
 */
export type UploadResult =
  | { status: 'CREATED' | 'EXISTING'; attachment: AttachmentEntity }
  | { status: 'INVALID' | 'UNSUPPORTED_TYPE' | 'TOO_LARGE'; failure: OperationFailure };

/** The reference a message, a manifest or a model is given. */
export function attachmentReference(attachment: AttachmentEntity): AttachmentReference {
  return { cid: attachment.cid, name: attachment.name, mediaType: attachment.mediaType, byteSize: attachment.byteSize };
}

/**
 * Files by content, per account: each account holds a cid once, with the name and media type of
 * its first upload. Bytes go to the configured storage; attachments stored before a change of
 * storage stay readable where they are (the database's storage is always at hand).
 */
export class AttachmentService {
  private readonly storages: Map<string, AttachmentStorage>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly storage: AttachmentStorage,
    databaseStorage: AttachmentStorage,
    /** The most bytes one attachment may have. */
    readonly maxBytes: number,
  ) {
    this.storages = new Map([databaseStorage, storage].map((each) => [each.name, each]));
  }

  /**
   * Streams an upload into storage, hashing it on the way. Bytes the account holds already are
   * not kept twice: the stored copy is removed and the existing attachment returned.
   */
  async upload(viewer: Viewer, upload: AttachmentUpload): Promise<UploadResult> {
    const nameProblems = validateAttachmentName(upload.name);
    if (nameProblems.length > 0) return { status: 'INVALID', failure: { code: ErrorCode.INVALID_INPUT, message: nameProblems[0].message, details: nameProblems } };
    const mediaType = mediaTypeOf(upload.contentType);
    if (mediaType === null) {
      const message = 'Send the file\'s media type as Content-Type, e.g. "image/png" or "text/plain; charset=utf-8".';
      return { status: 'UNSUPPORTED_TYPE', failure: { code: ErrorCode.INVALID_INPUT, message, details: [{ path: ['contentType'], message }] } };
    }
    if (upload.contentLength !== undefined && upload.contentLength > this.maxBytes) return this.tooLarge();
    let stored;
    try {
      stored = await this.storage.put(upload.body, this.maxBytes);
    } catch (error) {
      if (error instanceof BlobTooLarge) return this.tooLarge();
      throw error;
    }
    const attachment = Object.assign(new AttachmentEntity(), {
      accountId: viewer.accountId,
      cid: stored.cid,
      name: upload.name!,
      mediaType,
      byteSize: stored.byteSize,
      storage: this.storage.name,
      storageKey: stored.key,
      createdAt: new Date(),
    });
    let created: boolean;
    try {
      created = await recordAttachment(this.dataSource.manager, attachment);
    } catch (error) {
      // Bytes no attachment names would never be served: they go with the failed upload.
      await this.storage.remove(stored.key);
      throw error;
    }
    if (created) return { status: 'CREATED', attachment };
    await this.storage.remove(stored.key);
    const [existing] = await findAttachments(this.dataSource.manager, viewer.accountId, [stored.cid]);
    return { status: 'EXISTING', attachment: existing };
  }

  private tooLarge(): UploadResult {
    const message = `An attachment has at most ${this.maxBytes} bytes.`;
    return { status: 'TOO_LARGE', failure: { code: ErrorCode.INVALID_INPUT, message, details: [{ path: ['body'], message }] } };
  }

  /** The viewer's attachment with this cid; null for any other account's, or for no cid at all. */
  async find(viewer: Viewer, cid: string): Promise<AttachmentEntity | null> {
    if (!isCid(cid)) return null;
    const [found] = await findAttachments(this.dataSource.manager, viewer.accountId, [cid]);
    return found ?? null;
  }

  /** Attachments of one account by cid, aligned with `cids` (null where absent): a DataLoader batch function. */
  async attachmentsByCids(accountId: string, cids: readonly string[]): Promise<(AttachmentEntity | null)[]> {
    const rows = await findAttachments(this.dataSource.manager, accountId, cids.filter(isCid));
    return alignOne(cids, rows, (attachment) => attachment.cid);
  }

  /**
   * Stores bytes an import brings, before its transaction records them (storage writes on its own
   * connections): their key, cid and size, and the storage that holds them. The import records
   * them with {@link recordAttachment}, or gives them back with {@link unstage} when it fails.
   */
  async stage(bytes: Buffer): Promise<{ storage: AttachmentStorage['name']; stored: StoredBlob }> {
    return { storage: this.storage.name, stored: await this.storage.put(Readable.from([bytes]), Math.max(bytes.length, 1)) };
  }

  /** Removes bytes staged for an import that did not record them. */
  async unstage(staged: { storage: AttachmentStorage['name']; stored: StoredBlob }[]): Promise<void> {
    for (const { storage, stored } of staged) await this.storages.get(storage)?.remove(stored.key).catch(() => undefined);
  }

  /**
   * Removes the bytes of attachments whose rows an erasure deleted, from storage outside the
   * database (the database's own went in the erasure's transaction). A failure is logged and the
   * others still go: nothing names those bytes any more, so they can never be served.
   */
  async discardBytes(deleted: AttachmentEntity[]): Promise<void> {
    for (const attachment of deleted) {
      const storage = this.storages.get(attachment.storage);
      if (!storage || storage.name === 'database') continue;
      await storage.remove(attachment.storageKey).catch((error: unknown) => {
        logger.error({ err: error, cid: attachment.cid }, 'Removing the bytes of an erased attachment failed');
      });
    }
  }

  /** The attachment's bytes, streamed from where they are stored. */
  open(attachment: AttachmentEntity): Promise<Readable> {
    const storage = this.storages.get(attachment.storage);
    if (!storage) throw new Error(`Attachment ${attachment.cid} is kept in ${attachment.storage} storage, which this server is not configured for`);
    return storage.get(attachment.storageKey);
  }

  /** The attachment's bytes when it has at most `maxBytes`; null for a larger one, which is not read. */
  async bytes(attachment: AttachmentEntity, maxBytes: number): Promise<Buffer | null> {
    return attachment.byteSize > maxBytes ? null : this.start(attachment, maxBytes);
  }

  /** The first `maxBytes` of the attachment (all of a smaller one), reading no further. */
  async start(attachment: AttachmentEntity, maxBytes: number): Promise<Buffer> {
    const pieces: Buffer[] = [];
    let size = 0;
    const stream = await this.open(attachment);
    try {
      for await (const piece of stream) {
        pieces.push(piece as Buffer);
        size += (piece as Buffer).length;
        if (size >= maxBytes) break;
      }
    } finally {
      stream.destroy();
    }
    return Buffer.concat(pieces, size).subarray(0, maxBytes);
  }

  /**
   * A text attachment's content (as UTF-8, NUL mended to U+FFFD so that it can be stored where it
   * is quoted) when it has at most `maxBytes`; null for other types and larger files.
   */
  async text(attachment: AttachmentEntity, maxBytes: number): Promise<string | null> {
    if (!isTextMediaType(attachment.mediaType)) return null;
    const bytes = await this.bytes(attachment, maxBytes);
    return bytes === null ? null : storableText(bytes.toString('utf8'));
  }
}
