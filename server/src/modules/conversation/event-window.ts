import { ErrorDetail, Outcome, fail, succeed, ErrorCode } from '../../shared/errors';
import { DEFAULT_PAGE_SIZE, decodeCursor, encodeCursor, validatePageSize } from '../../shared/pagination';

export interface EventPageArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
  fromSeq?: number | null;
  toSeq?: number | null;
}

/** An inclusive range of seq numbers to read, and what lies outside it within the requested bounds. */
export interface EventWindow {
  fromSeq: number;
  toSeq: number;
  hasPreviousPage: boolean;
  hasNextPage: boolean;
  /** Events within fromSeq/toSeq of the arguments, before the cursors and page size apply. */
  totalCount: number;
}

const SEQ_CURSOR = 'seq';

export function eventCursor(seq: number): string {
  return encodeCursor(SEQ_CURSOR, seq);
}

function cursorSeq(name: string, cursor: string, details: ErrorDetail[]): number | null {
  const key = decodeCursor(SEQ_CURSOR, cursor);
  const seq = key === null ? NaN : Number(key);
  if (!Number.isInteger(seq) || seq < 0) {
    details.push({ path: [name], message: `${name} is not a cursor of this transcript.` });
    return null;
  }
  return seq;
}

/**
 * Keyset pagination over a gap-free transcript: since seq runs 1..eventCount without holes,
 * the page is computed arithmetically and read with one range scan on (session, seq).
 */
export function eventWindow(args: EventPageArgs, eventCount: number): Outcome<EventWindow> {
  const details = [...validatePageSize('first', args.first), ...validatePageSize('last', args.last)];
  if (args.first != null && args.last != null) {
    details.push({ path: ['last'], message: 'Pass either first or last, not both.' });
  }
  for (const name of ['fromSeq', 'toSeq'] as const) {
    const value = args[name];
    if (value != null && (!Number.isInteger(value) || value < 1)) {
      details.push({ path: [name], message: `${name} must be a positive integer.` });
    }
  }
  const afterSeq = args.after == null ? null : cursorSeq('after', args.after, details);
  const beforeSeq = args.before == null ? null : cursorSeq('before', args.before, details);
  if (details.length > 0) return fail(ErrorCode.INVALID_INPUT, details[0].message, details);

  const boundLow = Math.max(1, args.fromSeq ?? 1);
  const boundHigh = Math.min(eventCount, args.toSeq ?? eventCount);
  const totalCount = Math.max(0, boundHigh - boundLow + 1);

  let low = afterSeq === null ? boundLow : Math.max(boundLow, afterSeq + 1);
  let high = beforeSeq === null ? boundHigh : Math.min(boundHigh, beforeSeq - 1);
  if (args.last != null) {
    low = Math.max(low, high - args.last + 1);
  } else {
    high = Math.min(high, low + (args.first ?? DEFAULT_PAGE_SIZE) - 1);
  }
  return succeed({
    fromSeq: low,
    toSeq: high,
    hasPreviousPage: low > boundLow,
    hasNextPage: high < boundHigh,
    totalCount,
  });
}
