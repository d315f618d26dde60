import { Redis } from 'ioredis';
import { DataSource, EntityManager } from 'typeorm';
import { logger } from '../observability/logger';
import { metrics } from '../observability/metrics';

/** A replica's state as `/readyz` shows it. */
export interface ReplicaState {
  ok: boolean;
  /** Bytes of write-ahead log the primary has written and the replica not yet replayed. */
  lagBytes?: number;
  /** Seconds since the replica replayed its last transaction, while it is behind; 0 when caught up. */
  lagSeconds?: number;
  error?: string;
}

/**
 * Where reads of history go that need not see other clients' latest writes: search, lineage,
 * transcript pages. With a replica, a read of an account runs there once the replica has replayed
 * that account's last write (read-your-writes, on every process), and on the primary before.
 */
export interface HistoryReads {
  /** Runs `read` on the replica when it has everything `accountId` wrote, else on the primary. */
  read<T>(accountId: string, read: (manager: EntityManager, onReplica: boolean) => Promise<T>): Promise<T>;
  /** Records that `accountId` just wrote; resolves once every process knows, so that the writer's next read sees it. */
  wrote(accountId: string): Promise<void>;
  /** The replica's state; null without one. */
  replicaState(): Promise<ReplicaState | null>;
  close(): Promise<void>;
}

/** Without a replica: every read on the primary. */
export function primaryReads(primary: DataSource): HistoryReads {
  return {
    read: (_accountId, read) => read(primary.manager, false),
    wrote: () => Promise.resolve(),
    replicaState: () => Promise.resolve(null),
    close: () => Promise.resolve(),
  };
}

/** A write-ahead log position (`16/B374D848`) as a number of bytes. */
export function lsnBytes(lsn: string): bigint {
  const [high, low] = lsn.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

/** How long an account's last write position is kept: far longer than any replica should lag. */
const MARK_TTL_MS = 3_600_000;
const MARK_PREFIX = 'session-continuation:wrote:';
/** Keeps the larger of the stored position and the given one: processes record concurrently. */
const RAISE_MARK = `local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if tonumber(ARGV[1]) > current then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) else redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 1`;

/**
 * Reads from a streaming replica, with read-your-writes by account: after a write, the primary's
 * WAL insert position is kept in Redis under the account (the larger one wins), and a read of
 * that account goes to the replica only once `pg_last_wal_replay_lsn()` there has reached it.
 * The replica's replay position is asked only when the one seen last is not far enough.
 */
export class ReplicaReads implements HistoryReads {
  /** The replica's replay position as last seen: it only grows. */
  private replayed = -1n;

  constructor(
    private readonly primary: DataSource,
    private readonly replica: DataSource,
    private readonly marks: Redis,
  ) {
    marks.defineCommand('raiseMark', { numberOfKeys: 1, lua: RAISE_MARK });
  }

  /** Connects to Redis for the write positions; the replica's data source is opened already. */
  static async connect(primary: DataSource, replica: DataSource, redisUrl: string): Promise<ReplicaReads> {
    const marks = new Redis(redisUrl, { lazyConnect: true, connectionName: `session-continuation-marks/${process.pid}` });
    marks.on('error', (error: Error) => logger.warn({ err: error }, 'The connection to Redis for write positions failed; reconnecting'));
    await marks.connect();
    return new ReplicaReads(primary, replica, marks);
  }

  async read<T>(accountId: string, read: (manager: EntityManager, onReplica: boolean) => Promise<T>): Promise<T> {
    let caughtUp: boolean;
    try {
      caughtUp = await this.caughtUpWith(accountId);
    } catch (error) {
      logger.warn({ err: error }, 'Cannot tell whether the replica has the latest writes; reading from the primary');
      metrics.historyReads.inc({ on: 'primary_failed' });
      return read(this.primary.manager, false);
    }
    if (!caughtUp) {
      metrics.historyReads.inc({ on: 'primary_behind' });
      return read(this.primary.manager, false);
    }
    try {
      const result = await read(this.replica.manager, true);
      metrics.historyReads.inc({ on: 'replica' });
      return result;
    } catch (error) {
      // A replica down, or a query cancelled by a conflict with recovery: the primary answers.
      logger.warn({ err: error }, 'A read on the replica failed; reading from the primary');
      metrics.historyReads.inc({ on: 'primary_failed' });
      return read(this.primary.manager, false);
    }
  }

  private async caughtUpWith(accountId: string): Promise<boolean> {
    const mark = await this.marks.get(MARK_PREFIX + accountId);
    if (mark === null) return true;
    const needed = BigInt(mark);
    if (this.replayed >= needed) return true;
    const [row] = await this.replica.query('SELECT pg_last_wal_replay_lsn()::text AS lsn');
    if (row.lsn) this.replayed = lsnBytes(row.lsn) > this.replayed ? lsnBytes(row.lsn) : this.replayed;
    return this.replayed >= needed;
  }

  async wrote(accountId: string): Promise<void> {
    const [row] = await this.primary.query('SELECT pg_current_wal_insert_lsn()::text AS lsn');
    await (this.marks as Redis & { raiseMark(key: string, lsn: string, ttl: number): Promise<number> }).raiseMark(
      MARK_PREFIX + accountId,
      lsnBytes(row.lsn).toString(),
      MARK_TTL_MS,
    );
  }

  async replicaState(): Promise<ReplicaState> {
    try {
      const [[primary], [replica]] = await Promise.all([
        this.primary.query('SELECT pg_current_wal_lsn()::text AS lsn'),
        this.replica.query(
          'SELECT pg_last_wal_replay_lsn()::text AS lsn, extract(epoch FROM now() - pg_last_xact_replay_timestamp())::float8 AS seconds',
        ),
      ]);
      if (!replica.lsn) return { ok: false, error: 'DATABASE_REPLICA_URL is not a standby: it replays no write-ahead log.' };
      const behind = lsnBytes(primary.lsn) - lsnBytes(replica.lsn);
      const lagBytes = behind > 0n ? Number(behind) : 0;
      return { ok: true, lagBytes, lagSeconds: lagBytes === 0 ? 0 : Math.max(0, Number(replica.seconds ?? 0)) };
    } catch (error) {
      return { ok: false, error: `The replica does not answer: ${error instanceof Error ? error.message : String(error)}` };
    }
  }

  async close(): Promise<void> {
    await this.marks.quit().catch(() => undefined);
  }
}
