import { Readable } from 'node:stream';
import yauzl from 'yauzl';

/** Limits on what a zip may unpack to, so that a small upload cannot become a large allocation. */
export interface ZipLimits {
  maxEntries: number;
  maxTotalBytes: number;
}

/** The zip could not be read: not a zip, truncated, over a limit, or a name given twice. */
export class DamagedZip extends Error {}

function openZip(bytes: Buffer): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true, validateEntrySizes: true, strictFileNames: true }, (error, zip) =>
      error ? reject(new DamagedZip(`Not a readable zip: ${error.message}`)) : resolve(zip),
    );
  });
}

function entryStream(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => (error ? reject(new DamagedZip(`Cannot read ${entry.fileName}: ${error.message}`)) : resolve(stream)));
  });
}

/**
 * Every file of a zip held in memory, by name (folders left out). Reads entries one at a time and
 * stops past the limits: each entry's declared and actual sizes are checked by yauzl.
 * @throws DamagedZip
 */
export async function readZip(bytes: Buffer, limits: ZipLimits): Promise<Map<string, Buffer>> {
  const zip = await openZip(bytes);
  const files = new Map<string, Buffer>();
  let total = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('error', (error: Error) => reject(new DamagedZip(`Not a readable zip: ${error.message}`)));
      zip.on('end', () => resolve());
      zip.on('entry', (entry: yauzl.Entry) => {
        void (async () => {
          if (entry.fileName.endsWith('/')) return zip.readEntry();
          if (files.size >= limits.maxEntries) throw new DamagedZip(`The zip holds more than ${limits.maxEntries} files.`);
          if (files.has(entry.fileName)) throw new DamagedZip(`The zip holds ${entry.fileName} twice.`);
          total += entry.uncompressedSize;
          if (total > limits.maxTotalBytes) throw new DamagedZip(`The zip unpacks to more than ${limits.maxTotalBytes} bytes.`);
          const pieces: Buffer[] = [];
          for await (const piece of await entryStream(zip, entry)) pieces.push(piece as Buffer);
          files.set(entry.fileName, Buffer.concat(pieces));
          zip.readEntry();
        })().catch((error: unknown) => reject(error instanceof DamagedZip ? error : new DamagedZip(`Not a readable zip: ${(error as Error).message}`)));
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
  return files;
}
