import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { CountingEventTarget } from './counting-event-target';
import type { PayloadCodec } from './payload-codec';
import { logger } from '../observability/logger';
import { metrics } from '../observability/metrics';

/** The LISTEN/NOTIFY channel the processes of one database share. */
export const PUBSUB_CHANNEL = 'session_continuation_pubsub';
/**
 * The `application_name` of a LISTEN connection, `<this>/<pid>`: how operators find them in
 * `pg_stat_activity`, and which server process each one serves.
 */
export const PUBSUB_APPLICATION_NAME = 'session-continuation-pubsub';
/** PostgreSQL refuses NOTIFY payloads of 8,000 bytes or more. */
const MAX_PAYLOAD_BYTES = 7_900;

/** How the LISTEN connection is kept alive and brought back. */
export interface ReconnectOptions {
  /** The first wait before reconnecting; it doubles with every failed attempt, up to `maxDelayMs`. */
  initialDelayMs: number;
  maxDelayMs: number;
  /** How often the connection proves it still answers; a silent network drop is found this way. */
  heartbeatMs: number;
}

export const DEFAULT_RECONNECT_OPTIONS: ReconnectOptions = { initialDelayMs: 500, maxDelayMs: 30_000, heartbeatMs: 10_000 };

interface Announcement {
  /** The process that published it: it delivered to its own subscribers already. */
  from: string;
  type: string;
  compacted: unknown;
}

/**
 * What a process says of itself: it started listening (`hello`), it answers one that did
 * (`here`), it stops (`bye`). Announcements are sent only while another process listens.
 */
interface Presence {
  presence: 'hello' | 'here' | 'bye';
  from: string;
}

const PRESENCES: readonly string[] = ['hello', 'here', 'bye'];

function isPresence(message: unknown): message is Presence {
  const candidate = message as Presence;
  return typeof message === 'object' && message !== null && PRESENCES.includes(candidate.presence) && typeof candidate.from === 'string';
}

function isAnnouncement(message: unknown): message is Announcement {
  const candidate = message as Announcement;
  return typeof message === 'object' && message !== null && typeof candidate.from === 'string' && typeof candidate.type === 'string';
}

/** How long a starting process gives the others, once they have its hello, to count it in. */
const INTRODUCTION_GRACE_MS = 100;
/** How long a starting process waits for its own hello to come back before it starts anyway. */
const INTRODUCTION_TIMEOUT_MS = 2_000;
/**
 * Catching up re-reads from somewhat before the connection was last known to work: notifications
 * still in flight then, and clocks of other hosts that stamp the records, are covered by it.
 */
const CATCH_UP_MARGIN_MS = 5_000;
/** Announcements kept for the other processes while the connection is down; older ones are dropped first. */
const MAX_QUEUED_WHILE_DOWN = 10_000;

/** Announcements as JSON arrays that each fit in a notification; one too large alone is left out, and said so. */
function packed(announcements: Announcement[]): string[] {
  if (announcements.length === 0) return [];
  const payload = JSON.stringify(announcements);
  if (Buffer.byteLength(payload, 'utf8') <= MAX_PAYLOAD_BYTES) return [payload];
  if (announcements.length === 1) {
    logger.error({ type: announcements[0].type }, 'A publish is too large to announce to other processes; their subscribers miss it');
    return [];
  }
  const half = Math.ceil(announcements.length / 2);
  return [...packed(announcements.slice(0, half)), ...packed(announcements.slice(half))];
}

/**
 * An event target shared by every server process on one PostgreSQL, through LISTEN/NOTIFY.
 * A publish reaches this process's subscribers at once, from memory, and is announced to the
 * other processes in compact form; a process restores an announcement only when it has
 * subscribers for that topic, and delivers in the order they were announced.
 * A process alone announces nothing: processes greet each other on the channel when they start
 * and say goodbye when they stop, and one that announces is known to be there too (a version
 * that does not greet). One connection per process sends and listens.
 *
 * When that connection drops (a database restart, `pg_terminate_backend`, the network), it is
 * opened again with backoff; announcements wait for it, and once it listens again every
 * subscribed topic catches up from the database on what it may have missed.
 */
export class PostgresEventTarget extends CountingEventTarget {
  readonly mode = 'postgres';
  private readonly processId = randomUUID();
  /** The live, listening connection; null while it is being (re)established. */
  private client: Client | null = null;
  private closing = false;
  /** Aborts a reconnect's wait when the process stops. */
  private readonly stopped = new AbortController();
  private reconnecting: Promise<void> | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  /** Database time at which the connection last answered: catching up starts shortly before it. */
  private aliveAt: Date | null = null;
  /** When (local time) each record was last delivered here, by topic and identity; kept as long as a catch-up could re-read it. */
  private readonly delivered = new Map<string, number>();
  private sending: Promise<unknown> = Promise.resolve();
  /** Announcements waiting for the connection: sent together, one round trip for all. */
  private queued: Announcement[] = [];
  private delivering: Promise<unknown> = Promise.resolve();
  /** The other processes listening on the channel, as far as this one has heard. */
  private readonly peers = new Set<string>();
  private introduced: () => void = () => undefined;

  private constructor(
    private readonly databaseUrl: string,
    private readonly codec: PayloadCodec,
    private readonly options: ReconnectOptions,
  ) {
    super();
  }

  /**
   * Listens on the channel and introduces this process to the others.
   * @throws the connection's error when PostgreSQL cannot be reached at start.
   */
  static async connect(databaseUrl: string, codec: PayloadCodec, options: Partial<ReconnectOptions> = {}): Promise<PostgresEventTarget> {
    const target = new PostgresEventTarget(databaseUrl, codec, { ...DEFAULT_RECONNECT_OPTIONS, ...options });
    await target.listen();
    return target;
  }

  /** Whether announcements cross processes now: false while the connection is being re-established. */
  get connected(): boolean {
    return this.client !== null;
  }

  /** Whether another process listens: announcements are for them. */
  get hasPeers(): boolean {
    return this.peers.size > 0;
  }

  private async listen(): Promise<void> {
    const client = new Client({
      connectionString: this.databaseUrl,
      application_name: `${PUBSUB_APPLICATION_NAME}/${process.pid}`,
      keepAlive: true,
      // A heartbeat that gets no answer in time counts as a dropped connection.
      query_timeout: Math.max(this.options.heartbeatMs, 5_000),
    });
    client.on('notification', (message) => {
      if (message.channel === PUBSUB_CHANNEL && message.payload) this.receive(message.payload);
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, null));
    try {
      await client.connect();
      await client.query(`LISTEN ${PUBSUB_CHANNEL}`);
      await this.markAlive(client);
      this.client = client;
      await this.introduce();
      if (this.client !== client) throw new Error('The connection dropped while introducing this process.');
    } catch (error) {
      if (this.client === client) this.client = null;
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      throw error;
    }
    this.heartbeat = setInterval(() => void this.beat(client), this.options.heartbeatMs);
    this.heartbeat.unref();
    this.sending = this.sending.then(() => this.flush());
  }

  private async markAlive(client: Client): Promise<void> {
    const { rows } = await client.query<{ now: Date }>('SELECT now() AS now');
    this.aliveAt = rows[0].now;
    // Records delivered well before the point a catch-up would start from are forgotten.
    const forgetBefore = Date.now() - 2 * CATCH_UP_MARGIN_MS - this.options.heartbeatMs;
    for (const [key, at] of this.delivered) if (at < forgetBefore) this.delivered.delete(key);
  }

  private async beat(client: Client): Promise<void> {
    try {
      await this.markAlive(client);
    } catch (error) {
      this.lost(client, error);
    }
  }

  /** The connection dropped: stop using it and open another, unless this process is stopping. */
  private lost(client: Client, error: unknown): void {
    if (client !== this.client) return;
    this.client = null;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    client.removeAllListeners('end');
    client.end().catch(() => undefined);
    if (this.closing) return;
    logger.warn({ err: error }, 'The pub/sub connection to PostgreSQL dropped; reconnecting');
    this.reconnecting ??= this.reconnect().finally(() => (this.reconnecting = null));
  }

  private async reconnect(): Promise<void> {
    const since = new Date((this.aliveAt?.getTime() ?? Date.now()) - CATCH_UP_MARGIN_MS);
    for (let attempt = 0; ; attempt += 1) {
      try {
        await sleep(Math.min(this.options.initialDelayMs * 2 ** attempt, this.options.maxDelayMs), undefined, { signal: this.stopped.signal });
      } catch {
        return; // closing
      }
      try {
        await this.listen();
      } catch (error) {
        logger.warn({ err: error, attempt: attempt + 1 }, 'Reconnecting pub/sub to PostgreSQL failed');
        continue;
      }
      if (this.closing) return;
      metrics.pubSubReconnects.inc();
      logger.info('The pub/sub connection to PostgreSQL is back; subscribers catch up');
      this.catchUp(since);
      return;
    }
  }

  /** Every subscribed topic re-reads what it may have missed since `since`, skipping what was delivered. */
  private catchUp(since: Date): void {
    for (const type of this.listenedTypes()) {
      this.delivering = this.delivering
        .then(() => this.codec.missedSince(type, since))
        .then(
          (missed) => {
            for (const detail of missed) {
              if (!this.delivered.has(this.deliveryKey(type, detail))) this.deliver(type, detail, 'catch_up');
            }
          },
          (error) => logger.error({ err: error, type }, 'Catching up after a reconnect failed'),
        );
    }
  }

  private deliveryKey(type: string, detail: unknown): string {
    return `${type}\n${this.codec.identity(type, detail)}`;
  }

  /** Delivers to this process's subscribers only, remembering it for a later catch-up. */
  private deliver(type: string, detail: unknown, source: 'local' | 'remote' | 'catch_up'): void {
    metrics.pubSubDeliveries.inc({ source });
    if (this.hasListeners(type)) this.delivered.set(this.deliveryKey(type, detail), Date.now());
    super.dispatchEvent(new CustomEvent(type, { detail }));
  }

  /**
   * Says hello and waits for it to come back, then a moment more: by then the processes already
   * listening have heard it, and announce what they publish to this one's subscribers.
   */
  private async introduce(): Promise<void> {
    const heard = new Promise<void>((resolve) => {
      this.introduced = resolve;
      setTimeout(resolve, INTRODUCTION_TIMEOUT_MS).unref();
    });
    await this.say('hello');
    await heard;
    await sleep(INTRODUCTION_GRACE_MS);
  }

  private async say(presence: Presence['presence']): Promise<void> {
    const message: Presence = { presence, from: this.processId };
    await this.client?.query('SELECT pg_notify($1, $2)', [PUBSUB_CHANNEL, JSON.stringify(message)]);
  }

  dispatchEvent(event: Event): boolean {
    const { type, detail } = event as CustomEvent;
    this.deliver(type, detail, 'local');
    if (!this.hasPeers) return true;
    this.queued.push({ from: this.processId, type, compacted: this.codec.compact(type, detail) });
    if (this.queued.length > MAX_QUEUED_WHILE_DOWN) {
      this.queued.shift();
      logger.error('The pub/sub connection to PostgreSQL is down too long: other processes miss the oldest publishes');
    }
    if (this.queued.length === 1) {
      this.sending = this.sending.then(() => this.flush());
    }
    return true;
  }

  /** Everything queued, in as few notifications as fit: usually one. Kept for later while the connection is down. */
  private async flush(): Promise<void> {
    const client = this.client;
    if (!client || this.queued.length === 0) return;
    const announcements = this.queued;
    this.queued = [];
    const payloads = packed(announcements);
    if (payloads.length === 0) return;
    const calls = payloads.map((_, index) => `pg_notify($1, $${index + 2})`).join(', ');
    try {
      await client.query(`SELECT ${calls}`, [PUBSUB_CHANNEL, ...payloads]);
    } catch (error) {
      if (this.client === client) {
        logger.error({ err: error }, 'Publishing through PostgreSQL failed');
        return;
      }
      // The connection dropped meanwhile: these go out again once it is back.
      this.queued = [...announcements, ...this.queued];
    }
  }

  /** Waits for what was published so far to be sent, says goodbye, then stops listening. */
  async close(): Promise<void> {
    await this.sending;
    this.closing = true;
    this.stopped.abort();
    await this.reconnecting;
    if (this.heartbeat) clearInterval(this.heartbeat);
    const client = this.client;
    if (!client) return;
    try {
      await this.say('bye');
    } catch (error) {
      // The others keep announcing to this process: wasted, but nothing is lost.
      logger.warn({ err: error }, 'Saying goodbye to the other processes failed');
    }
    this.client = null;
    client.removeAllListeners('end');
    await client.end();
  }

  /** A notification on the channel; what is not valid JSON of a known shape is logged and left. */
  private receive(payload: string): void {
    let message: unknown;
    try {
      message = JSON.parse(payload);
    } catch {
      logger.warn(`Ignored a notification on ${PUBSUB_CHANNEL} that is not JSON: ${payload.slice(0, 200)}`);
      return;
    }
    if (isPresence(message)) {
      this.greeted(message);
      return;
    }
    if (!Array.isArray(message)) {
      logger.warn(`Ignored a notification on ${PUBSUB_CHANNEL} of an unknown shape`);
      return;
    }
    for (const announcement of message) {
      if (!isAnnouncement(announcement)) {
        logger.warn(`Ignored an announcement on ${PUBSUB_CHANNEL} of an unknown shape`);
        continue;
      }
      this.announced(announcement);
    }
  }

  private announced({ from, type, compacted }: Announcement): void {
    if (from === this.processId) return;
    this.peers.add(from);
    if (!this.hasListeners(type)) return;
    this.delivering = this.delivering
      .then(() => this.codec.restore(type, compacted))
      .then(
        (detail) => {
          if (detail != null) this.deliver(type, detail, 'remote');
        },
        // Subscribers tolerate a missing event: the transcript stream fills gaps from the database.
        (error) => logger.error({ err: error }, 'Restoring a published payload failed'),
      );
  }

  private greeted({ presence, from }: Presence): void {
    if (from === this.processId) {
      if (presence === 'hello') this.introduced();
      return;
    }
    if (presence === 'bye') {
      this.peers.delete(from);
      return;
    }
    this.peers.add(from);
    if (presence === 'hello') {
      this.say('here').catch((error) => logger.warn({ err: error }, 'Answering a starting process failed'));
    }
  }
}
