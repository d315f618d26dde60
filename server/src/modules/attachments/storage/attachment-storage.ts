import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { AttachmentStorageName } from '../attachment.entity';

/** Bytes as they were stored: under `key`, with their cid (sha256 hex) and size, both computed while streaming. */
export interface StoredBlob {
  key: string;
  cid: string;
  byteSize: number;
}

/** The bytes went past the limit: nothing of them was kept. */
export class BlobTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`The file is larger than ${maxBytes} bytes.`);
  }
}

/**
 * Where attachment bytes live. Deduplication is the caller's (by cid, per account): storage
 * only keeps bytes under keys of its own choosing and hands them back.
 */
export interface AttachmentStorage {
  readonly name: AttachmentStorageName;
  /**
   * Streams `body` into storage under a new key, hashing it on the way (never holding it whole).
   * @throws BlobTooLarge past `maxBytes`, having removed what it had stored.
   */
  put(body: AsyncIterable<Uint8Array>, maxBytes: number): Promise<StoredBlob>;
  /** The bytes stored under `key`, streamed. */
  get(key: string): Promise<Readable>;
  /** Removes what `put` stored: an upload that turned out to be a duplicate. */
  remove(key: string): Promise<void>;
}

/** A body measured as it passes: its sha256 and size once it has been read through, BlobTooLarge past the limit. */
export class MeasuredBody {
  private readonly hash = createHash('sha256');
  byteSize = 0;

  constructor(
    private readonly body: AsyncIterable<Uint8Array>,
    private readonly maxBytes: number,
  ) {}

  async *[Symbol.asyncIterator](): AsyncGenerator<Buffer> {
    for await (const piece of this.body) {
      this.byteSize += piece.length;
      if (this.byteSize > this.maxBytes) throw new BlobTooLarge(this.maxBytes);
      this.hash.update(piece);
      yield Buffer.from(piece.buffer, piece.byteOffset, piece.length);
    }
  }

  /** The sha256 hex of everything read; call once, after reading. */
  cid(): string {
    return this.hash.digest('hex');
  }
}
