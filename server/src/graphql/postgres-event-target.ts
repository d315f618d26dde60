import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { CountingEventTarget } from './pubsub';

/** The LISTEN/NOTIFY channel the processes of one database share. */
export const PUBSUB_CHANNEL = 'session_continuation_pubsub';
/** PostgreSQL refuses NOTIFY payloads of 8,000 bytes or more. */
const MAX_PAYLOAD_BYTES = 7_900;

/**
 * How a publish crosses processes: `compact` shrinks what is announced (an id instead of a whole
 * event), `restore` gets it back in a process whose subscribers want it.
 */
export interface PayloadCodec {
  compact(topic: string, detail: unknown): unknown;
  restore(topic: string, compacted: unknown): Promise<unknown>;
}

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

const isPresence = (message: unknown): message is Presence =>
  typeof message === 'object' && message !== null && typeof (message as Presence).presence === 'string';

/** How long a starting process gives the others, once they have its hello, to count it in. */
const INTRODUCTION_GRACE_MS = 100;
/** How long a starting process waits for its own hello to come back before it starts anyway. */
const INTRODUCTION_TIMEOUT_MS = 2_000;

/** Announcements as JSON arrays that each fit in a notification; one too large alone is left out, and said so. */
function packed(announcements: Announcement[]): string[] {
  if (announcements.length === 0) return [];
  const payload = JSON.stringify(announcements);
  if (Buffer.byteLength(payload, 'utf8') <= MAX_PAYLOAD_BYTES) return [payload];
  if (announcements.length === 1) {
    console.error(`A publish on ${announcements[0].type} is too large to announce to other processes; their subscribers miss it.`);
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
 */
export class PostgresEventTarget extends CountingEventTarget {
  private readonly processId = randomUUID();
  private sending: Promise<unknown> = Promise.resolve();
  /** Announcements waiting for the connection: sent together, one round trip for all. */
  private queued: Announcement[] = [];
  private delivering: Promise<unknown> = Promise.resolve();
  /** The other processes listening on the channel, as far as this one has heard. */
  private readonly peers = new Set<string>();
  private introduced: () => void = () => undefined;

  private constructor(
    private readonly client: Client,
    private readonly codec: PayloadCodec,
  ) {
    super();
  }

  static async connect(databaseUrl: string, codec: PayloadCodec): Promise<PostgresEventTarget> {
    const client = new Client({ connectionString: databaseUrl });
    await client.connect();
    const target = new PostgresEventTarget(client, codec);
    client.on('notification', (message) => {
      if (message.channel === PUBSUB_CHANNEL && message.payload) target.receive(message.payload);
    });
    client.on('error', (error) => console.error('Pub/sub connection to PostgreSQL failed:', error));
    await client.query(`LISTEN ${PUBSUB_CHANNEL}`);
    await target.introduce();
    return target;
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
    await new Promise((resolve) => setTimeout(resolve, INTRODUCTION_GRACE_MS));
  }

  private async say(presence: Presence['presence']): Promise<void> {
    const message: Presence = { presence, from: this.processId };
    await this.client.query('SELECT pg_notify($1, $2)', [PUBSUB_CHANNEL, JSON.stringify(message)]);
  }

  /** Whether another process listens: announcements are for them. */
  get hasPeers(): boolean {
    return this.peers.size > 0;
  }

  dispatchEvent(event: Event): boolean {
    super.dispatchEvent(event);
    if (!this.hasPeers) return true;
    const { type, detail } = event as CustomEvent;
    this.queued.push({ from: this.processId, type, compacted: this.codec.compact(type, detail) });
    if (this.queued.length === 1) {
      this.sending = this.sending.then(() => this.flush());
    }
    return true;
  }

  /** Everything queued, in as few notifications as fit: usually one. */
  private async flush(): Promise<void> {
    const payloads = packed(this.queued);
    this.queued = [];
    if (payloads.length === 0) return;
    const calls = payloads.map((_, index) => `pg_notify($1, $${index + 2})`).join(', ');
    try {
      await this.client.query(`SELECT ${calls}`, [PUBSUB_CHANNEL, ...payloads]);
    } catch (error) {
      console.error('Publishing through PostgreSQL failed:', error);
    }
  }

  /** Waits for what was published so far to be sent, says goodbye, then stops listening. */
  async close(): Promise<void> {
    await this.sending;
    try {
      await this.say('bye');
    } catch (error) {
      // The others keep announcing to this process: wasted, but nothing is lost.
      console.error('Saying goodbye to the other processes failed:', error);
    }
    await this.client.end();
  }

  private receive(payload: string): void {
    const message: unknown = JSON.parse(payload);
    if (isPresence(message)) {
      this.greeted(message);
      return;
    }
    // A process of another version may announce in another form: what this one cannot read, it leaves.
    if (!Array.isArray(message)) return;
    for (const { from, type, compacted } of message as Announcement[]) {
      if (from === this.processId) continue;
      this.peers.add(from);
      if (!this.hasListeners(type)) continue;
      this.delivering = this.delivering
        .then(() => this.codec.restore(type, compacted))
        .then(
          (detail) => {
            if (detail != null) super.dispatchEvent(new CustomEvent(type, { detail }));
          },
          // Subscribers tolerate a missing event: the transcript stream fills gaps from the database.
          (error) => console.error('Restoring a published payload failed:', error),
        );
    }
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
      this.say('here').catch((error) => console.error('Answering a starting process failed:', error));
    }
  }
}
