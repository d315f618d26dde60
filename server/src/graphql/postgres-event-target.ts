import { Client } from 'pg';
import { CountingEventTarget } from './pubsub';

const CHANNEL = 'session_continuation_pubsub';
/** PostgreSQL refuses NOTIFY payloads of 8,000 bytes or more. */
const MAX_PAYLOAD_BYTES = 7_900;

/** Shrinks a payload too large for a notification; `restore` gets it back on the receiving side. */
export interface PayloadCodec {
  compact(topic: string, detail: unknown): unknown;
  restore(topic: string, compacted: unknown): Promise<unknown>;
}

/**
 * An event target shared by every server process on one PostgreSQL, through LISTEN/NOTIFY:
 * a publish in any process reaches the subscribers of all of them, its own included (they hear
 * it back from the database like everyone else). One connection per process sends and listens,
 * so a process's notifications arrive in the order it sent them.
 */
export class PostgresEventTarget extends CountingEventTarget {
  private sending: Promise<unknown> = Promise.resolve();
  /** Payloads waiting for the connection: sent together, one round trip for all. */
  private queued: string[] = [];

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
    const { type, detail } = event as CustomEvent;
    let payload = JSON.stringify({ type, detail });
    if (Buffer.byteLength(payload, 'utf8') > MAX_PAYLOAD_BYTES) {
      payload = JSON.stringify({ type, compacted: this.codec.compact(type, detail) });
    }
    this.queued.push(payload);
    if (this.queued.length === 1) {
      this.sending = this.sending.then(() => this.flush());
    }
    return true;
  }

  private async flush(): Promise<void> {
    const payloads = this.queued;
    this.queued = [];
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
    const message = JSON.parse(payload) as { type: string; detail?: unknown; compacted?: unknown };
    const deliver = (detail: unknown) => super.dispatchEvent(new CustomEvent(message.type, { detail }));
    if (!('compacted' in message)) {
      deliver(message.detail);
      return;
    }
    // Subscribers tolerate a late event: the transcript stream fills gaps from the database.
    this.codec.restore(message.type, message.compacted).then(
      (detail) => {
        if (detail != null) deliver(detail);
      },
      (error) => console.error('Restoring a published payload failed:', error),
    );
  }
}
