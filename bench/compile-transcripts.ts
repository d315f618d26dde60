/** The long transcripts the compile benchmark continues: the same texts at every size. */
import { Pool } from 'pg';
import { EventKind, eventTokenCount } from '../server/src/modules/conversation/transcript';
import { chainMessages, insertMessages } from './transcript';
import { newRowId } from '../server/src/shared/ids';

/**
 * Message texts repeat with this period in seq. Every size is a multiple of it, so the ranges a
 * request cites hold the same texts at every size: only the history before them differs.
 */
const TEXT_PERIOD = 500;
export const START_RANGE = { from: 2, to: 301 };
export const MIDDLE_EVENTS = 10;
export const TAIL_EVENTS = 20;

const SENTENCES = [
  'The billing service still writes invoices and receipts to the same PostgreSQL cluster.',
  'Receipts are written once, read rarely, and make up most of the storage today.',
  'We agreed last week that invoices stay where they are.',
  'The nightly export job reads every receipt of the day and takes about forty minutes.',
  'Object storage would cut the database size by roughly two thirds.',
  'Can you check whether any report joins receipts with invoices directly?',
  'Three reports join them: monthly revenue, refunds by region and the tax export.',
  'The tax export has to keep working on the first of every month without exception.',
  'A dual-write period would let us compare both stores before the cut-over.',
  'Dual writes double the failure modes, so I would keep that window short.',
  'The copy job can run in batches of ten thousand receipts with a checkpoint after each.',
  'If a batch fails, the checkpoint lets the job resume without copying anything twice.',
  'Legal wants receipts kept for seven years, which the bucket policy must enforce.',
  'Deleting rows from PostgreSQL should wait until a full verification pass has succeeded.',
  'The verification compares a sha256 of every receipt in both stores.',
  'Read traffic for receipts peaks at the end of each quarter.',
  'The API returns a receipt by id; nothing lists receipts without a customer filter.',
  'We could serve receipts through signed URLs instead of proxying the bytes.',
  'Signed URLs expire, so the client has to ask again after fifteen minutes.',
  'Please draft the rollback for the step that switches reads to object storage.',
  'Rolling back the read switch is a configuration change and takes effect within a minute.',
  'The schema migration adds a nullable storage_key column before anything else moves.',
  'Once storage_key is filled for every row, the column becomes NOT NULL.',
  'I am not sure the refunds report can tolerate a receipt being briefly in both places.',
  'It can: the report reads the invoice totals, not the receipt bodies.',
  'What does the copy cost in egress if we run it from the current region?',
  'Within one region there is no egress charge, only the request fees.',
  'Let us keep a list of open questions at the end of each planning session.',
  'The on-call rotation needs a runbook for the copy job before it starts.',
  'Monitoring should alert when a batch takes more than twice the median time.',
  'Here is the order I would follow: schema change, copy, verify, switch reads, stop writes, clean up.',
  'Each step has its own rollback except the final clean-up, which is why it comes last.',
];

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32): the same transcripts every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Message {
  text: string;
  tokenCount: number;
}

/** Texts of varied length, tokenized once here rather than once per event. */
function messagePool(next: () => number, count: number, minSentences: number, maxSentences: number): Message[] {
  return Array.from({ length: count }, () => {
    const length = minSentences + Math.floor(next() * (maxSentences - minSentences + 1));
    const text = Array.from({ length }, () => SENTENCES[Math.floor(next() * SENTENCES.length)]).join(' ');
    return { text, tokenCount: eventTokenCount(text, null) };
  });
}

/** The message at each position of the period: users write a few sentences, the assistant more. */
export function messagePeriod(): { kind: EventKind; message: Message }[] {
  const next = random(42);
  const users = messagePool(next, 40, 1, 4);
  const assistants = messagePool(next, 40, 2, 12);
  return Array.from({ length: TEXT_PERIOD }, (_, position) => {
    // Sizes and the period are even: user messages at even seqs, so every transcript ends on one.
    const user = position % 2 === 0;
    const pool = user ? users : assistants;
    return { kind: user ? EventKind.USER_MESSAGE : EventKind.ASSISTANT_MESSAGE, message: pool[Math.floor(next() * pool.length)] };
  });
}

interface Range {
  from: number;
  to: number;
  relevance: string;
}

export interface Predecessor {
  size: number;
  sessionId: string;
  /** Event ids by seq - 1. */
  eventIds: string[];
  ranges: Range[];
}

/** A root session of `size` alternating messages, the last a user message, written in one transaction. */
export async function writePredecessor(pool: Pool, accountId: string, size: number, period: ReturnType<typeof messagePeriod>): Promise<Predecessor> {
  const sessionId = newRowId();
  // A message every half minute, the last one just now.
  const startedAt = Date.now() - size * 30_000;
  const rows = chainMessages(
    sessionId,
    Array.from({ length: size }, (_, index) => {
      const { kind, message } = period[(index + 1) % TEXT_PERIOD];
      return { kind, text: message.text, tokenCount: message.tokenCount, createdAt: new Date(startedAt + index * 30_000) };
    }),
  );
  const last = rows[rows.length - 1];
  if (last.kind !== EventKind.USER_MESSAGE) throw new Error(`The last of ${size} events is not a user message`);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO sessions (id, account_id, kind, status, title, created_at, event_count, token_count, last_event_hash, origin_id)
       VALUES ($1, $2, 'ROOT', 'ACTIVE', $3, $4, $5, $6, $7, $1)`,
      [sessionId, accountId, `Receipts migration, ${size} events`, rows[0].createdAt, size, last.tokenTotal, last.hash],
    );
    await insertMessages(client, accountId, rows);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
  const middle = size / 2;
  return {
    size,
    sessionId,
    eventIds: rows.map((row) => row.id),
    ranges: [
      { ...START_RANGE, relevance: 'How the chat framed the problem at the start.' },
      { from: middle - MIDDLE_EVENTS + 1, to: middle, relevance: 'The copy and verification design agreed midway.' },
      { from: size - TAIL_EVENTS + 1, to: size, relevance: 'The latest exchange, ending with the request to answer.' },
    ],
  };
}

