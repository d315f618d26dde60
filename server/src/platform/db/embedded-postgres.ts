import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface EmbeddedPostgres {
  /** A `postgres://` URL that the ordinary `pg` driver connects to. */
  url: string;
  stop(): Promise<void>;
}

/**
 * PGlite persisted in `dataDir`, behind its PostgreSQL wire-protocol socket on 127.0.0.1, so that
 * TypeORM and `pg` talk to it exactly as to a PostgreSQL server (each pooled connection is its own
 * session; transactions are serialized by the socket server).
 */
export async function startEmbeddedPostgres(dataDir: string, maxConnections: number, bufferMb?: number): Promise<EmbeddedPostgres> {
  await mkdir(dataDir, { recursive: true });
  // btree_gin lets one GIN index hold an event's account beside its text (see the EventSearch
  // migration); the extension ships as an ES module only.
  const { btree_gin } = await import('@electric-sql/pglite/contrib/btree_gin');
  // PostgreSQL clears its whole buffer pool as it starts: at the default 128 MB that is most of a
  // start's half second, and memory the process holds from then on.
  const startParams = bufferMb === undefined ? undefined : [...PGlite.defaultStartParams, '-c', `shared_buffers=${bufferMb}MB`];
  const db = await PGlite.create({ dataDir, extensions: { btree_gin }, ...(startParams ? { startParams } : {}) });
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections });
  try {
    await server.start();
  } catch (error) {
    await db.close();
    throw error;
  }
  return {
    url: `postgres://postgres@${server.getServerConn()}/postgres`,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
