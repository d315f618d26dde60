import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { AttachmentStorage, BlobTooLarge, MeasuredBody, StoredBlob } from './attachment-storage';

/** An S3-compatible bucket: AWS S3, MinIO, Ceph, R2, ... */
export interface S3StorageOptions {
  /** The service's URL; AWS's own for the region when absent. */
  endpoint?: string;
  bucket: string;
  region: string;
  /** Absent: the SDK's own credential chain (environment, profile, instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Buckets addressed in the path rather than the host name, as most self-hosted servers want. */
  forcePathStyle: boolean;
  /** Put before every key, e.g. `attachments/`. */
  keyPrefix?: string;
}

/**
 * Attachment bytes as objects of an S3-compatible bucket, one object per attachment of an account.
 * Uploads stream through `@aws-sdk/lib-storage` (multipart beyond 5 MiB), so a large file is never
 * held whole; one cut off past the limit is aborted, leaving no object behind.
 */
export class S3AttachmentStorage implements AttachmentStorage {
  readonly name = 's3' as const;
  private readonly client: S3Client;

  constructor(private readonly options: S3StorageOptions) {
    this.client = new S3Client({
      endpoint: options.endpoint,
      region: options.region,
      credentials: options.credentials,
      forcePathStyle: options.forcePathStyle,
    });
  }

  async put(body: AsyncIterable<Uint8Array>, maxBytes: number): Promise<StoredBlob> {
    const key = `${this.options.keyPrefix ?? ''}${randomUUID()}`;
    const measured = new MeasuredBody(body, maxBytes);
    const upload = new Upload({ client: this.client, params: { Bucket: this.options.bucket, Key: key, Body: Readable.from(measured) } });
    try {
      await upload.done();
    } catch (error) {
      // A single-part upload may have been sent whole before the error surfaced.
      await this.remove(key).catch(() => undefined);
      // The SDK may wrap the body's own error: the measure tells.
      throw measured.byteSize > maxBytes ? new BlobTooLarge(maxBytes) : error;
    }
    return { key, cid: measured.cid(), byteSize: measured.byteSize };
  }

  async get(key: string): Promise<Readable> {
    const object = await this.client.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: key }));
    return object.Body as Readable;
  }

  async remove(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: key }));
  }

  close(): void {
    this.client.destroy();
  }
}
