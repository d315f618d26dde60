import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { CountingEventTarget } from './counting-event-target';
import type { PayloadCodec } from './payload-codec';
import { logger } from '../observability/logger';

/** The Redis channel the processes of one deployment share. */
export const REDIS_PUBSUB_CHANNEL = 'session_continuation_pubsub';

/** Catching up after a reconnect re-reads from this long before the connection dropped (publishes in flight, clock skew). */
const CATCH_UP_MARGIN_MS = 5_000;

interface Announcement {
  /** The process that published it: it delivered to its own subscribers already. */
  from: string;
  type: string;
  compacted: unknown;
}

function isAnnouncement(message: unknown): message is Announcement {
  const candidate = message as Announcement;
  return typeof message === 'object' && message !== null && typeof candidate.from === 'string' && typeof candidate.type === 'string';
}

/**
 * An event target shared by every server process through Redis pub/sub: a publish reaches this
 * process's subscribers at once, from memory, and goes to the others on one channel in the
 * codec's compact form (transcript events by id); a process restores an announcement only when
 * it has subscribers for that topic, and delivers in the order they arrived. One connection
 * publishes, another listens. While Redis is away, publishes wait in the client's queue and go
 * out once it is back; then every subscribed topic catches up from the database, as with
 * PostgreSQL's LISTEN/NOTIFY.
 */
export class RedisEventTarget extends CountingEventTarget {
  readonly mode = 'redis';
  private readonly processId = randomUUID();
  private delivering: Promise<unknown> = Promise.resolve();
  /** When (local time) each record was last delivered here, by topic and identity, for a catch-up to skip. */
  private readonly delivered = new Map<string, number>();
  /** When the listening connection dropped; null while it is up. */
  private droppedAt: number | null = null;

  private constructor(
    private readonly publisher: Redis,
    private readonly listener: Redis,
    private readonly codec: PayloadCodec,
  ) {
    super();
  }

  /**
   * Connects both connections and listens on the channel.
   * @throws the connection's error when Redis cannot be reached at start.
   */
  static async connect(redisUrl: string, codec: PayloadCodec): Promise<RedisEventTarget> {
    // Commands wait for a reconnect rather than fail: a publish is never dropped for a blip.
    const options = { lazyConnect: true, maxRetriesPerRequest: null, connectionName: `session-continuation-pubsub/${process.pid}` };
    const publisher = new Redis(redisUrl, options);
    const listener = new Redis(redisUrl, options);
    const target = new RedisEventTarget(publisher, listener, codec);
    try {
      await Promise.all([publisher.connect(), listener.connect()]);
      await listener.subscribe(REDIS_PUBSUB_CHANNEL);
    } catch (error) {
      publisher.disconnect();
      listener.disconnect();
      throw error;
    }
    listener.on('message', (channel: string, message: string) => {
      if (channel === REDIS_PUBSUB_CHANNEL) target.receive(message);
    });
    listener.on('close', () => (target.droppedAt ??= Date.now()));
    // ioredis subscribes again by itself on reconnect; what was published meanwhile is read back.
    listener.on('ready', () => target.reconnected());
    for (const connection of [publisher, listener]) {
      connection.on('error', (error: Error) => logger.warn({ err: error }, 'The pub/sub connection to Redis failed; reconnecting'));
    }
    return target;
  }

  /** Whether announcements cross processes now. */
  get connected(): boolean {
    return this.publisher.status === 'ready' && this.listener.status === 'ready';
  }

  dispatchEvent(event: Event): boolean {
    const { type, detail } = event as CustomEvent;
    this.deliver(type, detail);
    const announcement: Announcement = { from: this.processId, type, compacted: this.codec.compact(type, detail) };
    this.publisher.publish(REDIS_PUBSUB_CHANNEL, JSON.stringify(announcement)).catch((error: Error) => logger.error({ err: error }, 'Publishing through Redis failed'));
    return true;
  }

  /** Waits for what was published so far to be sent, then closes both connections. */
  async close(): Promise<void> {
    this.listener.removeAllListeners('ready');
    await Promise.all([this.publisher.quit(), this.listener.quit()]).catch(() => undefined);
  }

  private deliveryKey(type: string, detail: unknown): string {
    return `${type}\n${this.codec.identity(type, detail)}`;
  }

  private deliver(type: string, detail: unknown): void {
    if (this.hasListeners(type)) this.delivered.set(this.deliveryKey(type, detail), Date.now());
    super.dispatchEvent(new CustomEvent(type, { detail }));
  }

  /** A message on the channel; what is not valid JSON of a known shape is logged and left. */
  private receive(message: string): void {
    let announcement: unknown;
    try {
      announcement = JSON.parse(message);
    } catch {
      logger.warn({ channel: REDIS_PUBSUB_CHANNEL, start: message.slice(0, 200) }, 'Ignored a pub/sub message that is not JSON');
      return;
    }
    if (!isAnnouncement(announcement)) {
      logger.warn({ channel: REDIS_PUBSUB_CHANNEL, start: message.slice(0, 200) }, 'Ignored a pub/sub message of an unknown shape');
      return;
    }
    const { from, type, compacted } = announcement;
    if (from === this.processId || !this.hasListeners(type)) return;
    this.delivering = this.delivering
      .then(() => this.codec.restore(type, compacted))
      .then(
        (detail) => {
          if (detail != null) this.deliver(type, detail);
        },
        (error) => logger.error({ err: error }, 'Restoring a published payload failed'),
      );
  }

  /** Back after a drop: every subscribed topic re-reads what it may have missed, skipping what was delivered. */
  private reconnected(): void {
    if (this.droppedAt === null) return;
    const since = new Date(this.droppedAt - CATCH_UP_MARGIN_MS);
    this.droppedAt = null;
    for (const [key, at] of this.delivered) if (at < since.getTime() - CATCH_UP_MARGIN_MS) this.delivered.delete(key);
    for (const type of this.listenedTypes()) {
      this.delivering = this.delivering
        .then(() => this.codec.missedSince(type, since))
        .then(
          (missed) => {
            for (const detail of missed) if (!this.delivered.has(this.deliveryKey(type, detail))) this.deliver(type, detail);
          },
          (error) => logger.error({ err: error, type }, 'Catching up after a reconnect failed'),
        );
    }
  }
}
