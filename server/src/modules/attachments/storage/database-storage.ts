import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { DataSource } from 'typeorm';
import { preparedQuery } from '../../../platform/db/prepared';
import { AttachmentStorage, MeasuredBody, StoredBlob } from './attachment-storage';

/** Bytes per row: large enough for few round trips, small enough that a read holds little at a time. */
export const CHUNK_BYTES = 256 * 1024;

/**
 * Attachment bytes in the database itself, as `bytea` rows of {@link CHUNK_BYTES} under a blob id:
 * both databases hold them, and so do their backups. Each chunk is its own statement, outside any
 * transaction, so a slow upload never holds the embedded database's one connection for long.
 */
export class DatabaseAttachmentStorage implements AttachmentStorage {
  readonly name = 'database' as const;

  constructor(private readonly dataSource: DataSource) {}

  async put(body: AsyncIterable<Uint8Array>, maxBytes: number): Promise<StoredBlob> {
    const key = randomUUID();
    const measured = new MeasuredBody(body, maxBytes);
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let seq = 0;
    try {
      for await (const piece of measured) {
        pending.push(piece);
        pendingBytes += piece.length;
        while (pendingBytes >= CHUNK_BYTES) {
          const joined = Buffer.concat(pending, pendingBytes);
          await this.insertChunk(key, seq++, joined.subarray(0, CHUNK_BYTES));
          pending = [joined.subarray(CHUNK_BYTES)];
          pendingBytes -= CHUNK_BYTES;
        }
      }
      if (pendingBytes > 0) await this.insertChunk(key, seq, Buffer.concat(pending, pendingBytes));
    } catch (error) {
      await this.remove(key);
      throw error;
    }
    return { key, cid: measured.cid(), byteSize: measured.byteSize };
  }

  private async insertChunk(key: string, seq: number, bytes: Buffer): Promise<void> {
    await preparedQuery(this.dataSource.manager, 'INSERT INTO attachment_chunks (blob_id, seq, bytes) VALUES ($1, $2, $3)', [key, seq, bytes]);
  }

  async get(key: string): Promise<Readable> {
    const manager = this.dataSource.manager;
    // One chunk per statement, read as the response drains: a download holds one chunk at a time.
    async function* chunks(): AsyncGenerator<Buffer> {
      for (let seq = 0; ; seq++) {
        const rows: { bytes: Buffer }[] = await preparedQuery(manager, 'SELECT bytes FROM attachment_chunks WHERE blob_id = $1 AND seq = $2', [key, seq]);
        if (rows.length === 0) return;
        yield rows[0].bytes;
      }
    }
    return Readable.from(chunks(), { objectMode: false });
  }

  async remove(key: string): Promise<void> {
    await preparedQuery(this.dataSource.manager, 'DELETE FROM attachment_chunks WHERE blob_id = $1', [key]);
  }
}
