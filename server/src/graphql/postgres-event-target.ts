import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { CountingEventTarget } from './pubsub';

const CHANNEL = 'session_continuation_pubsub';
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
 * One connection per process sends and listens.
 */
export class PostgresEventTarget extends CountingEventTarget {
  private readonly processId = randomUUID();
  private sending: Promise<unknown> = Promise.resolve();
  /** Announcements waiting for the connection: sent together, one round trip for all. */
  private queued: Announcement[] = [];
  private delivering: Promise<unknown> = Promise.resolve();

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
      if (message.channel === CHANNEL && message.payload) target.receive(message.payload);
    });
    client.on('error', (error) => console.error('Pub/sub connection to PostgreSQL failed:', error));
    await client.query(`LISTEN ${CHANNEL}`);
    return target;
  }

  dispatchEvent(event: Event): boolean {
    super.dispatchEvent(event);
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
      await this.client.query(`SELECT ${calls}`, [CHANNEL, ...payloads]);
    } catch (error) {
      console.error('Publishing through PostgreSQL failed:', error);
    }
  }

  /** Waits for what was published so far to be sent, then stops listening. */
  async close(): Promise<void> {
    await this.sending;
    await this.client.end();
  }

  private receive(payload: string): void {
    const announcements: unknown = JSON.parse(payload);
    // A process of another version may announce in another form: what this one cannot read, it leaves.
    if (!Array.isArray(announcements)) return;
    for (const { from, type, compacted } of announcements as Announcement[]) {
      if (from === this.processId || !this.hasListeners(type)) continue;
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
}
