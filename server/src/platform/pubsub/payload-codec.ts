import { logger } from '../observability/logger';

/**
 * How a publish crosses processes: `compact` shrinks what is announced (an id instead of a whole
 * event), `restore` gets it back in a process whose subscribers want it (null: nothing to deliver,
 * e.g. a malformed announcement). After a reconnect, `missedSince` re-reads from the database what
 * a topic's subscribers may have missed, and `identity` tells a record already delivered from a
 * new one, so that catching up repeats nothing. Event types are `<TOPIC>:<id>`.
 */
export interface PayloadCodec {
  compact(type: string, detail: unknown): unknown;
  restore(type: string, compacted: unknown): Promise<unknown>;
  missedSince(type: string, since: Date): Promise<unknown[]>;
  identity(type: string, detail: unknown): string;
}

/** How one topic's records cross processes; the module that owns the topic defines it. */
export interface TopicCodec {
  /** Whether a record that crossed processes has this topic's shape: another process could send anything. */
  wellShaped(detail: Record<string, unknown>): boolean;
  /** The record as it travels; whole when absent. */
  compact?(detail: unknown): unknown;
  /** The record back from how it travelled; as it came when absent. */
  restore?(compacted: unknown): Promise<unknown>;
  /** What a subscriber of `id` missed since `since`, read back from the database. */
  missedSince(id: string, since: Date): Promise<unknown[]>;
  /** Tells one delivery from another, so that a catch-up repeats none. */
  identity(detail: unknown): string;
}

/** `SESSION_EVENT:<id>` as its topic and id. */
function topicOf(type: string): [topic: string, id: string] {
  const colon = type.indexOf(':');
  return [type.slice(0, colon), type.slice(colon + 1)];
}

/** One codec over every topic's own; a publish of a topic nobody defines is logged and dropped. */
export function crossProcessCodec(topics: Record<string, TopicCodec>): PayloadCodec {
  const codecOf = (type: string) => topics[topicOf(type)[0]] as TopicCodec | undefined;
  return {
    compact(type, detail) {
      const codec = codecOf(type);
      return codec?.compact ? codec.compact(detail) : detail;
    },
    async restore(type, compacted) {
      const codec = codecOf(type);
      if (!codec || typeof compacted !== 'object' || compacted === null || !codec.wellShaped(compacted as Record<string, unknown>)) {
        logger.warn({ type }, 'Ignored a publish of an unknown shape');
        return null;
      }
      return codec.restore ? codec.restore(compacted) : compacted;
    },
    missedSince(type, since) {
      const codec = codecOf(type);
      return codec ? codec.missedSince(topicOf(type)[1], since) : Promise.resolve([]);
    },
    identity(type, detail) {
      const codec = codecOf(type);
      return codec ? codec.identity(detail) : (detail as { id: string }).id;
    },
  };
}
