import { countTokens as countO200kTokens, setMergeCacheSize } from 'gpt-tokenizer/encoding/o200k_base';
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
import { asciiPieceEnd, isAscii } from './ascii-pieces';

/** The tokenizer every stored token count is computed with. */
export const TOKENIZER = 'o200k_base';

/** Text that looks like a special token (`<|endoftext|>`) is ordinary text here: people may write anything. */
const SPECIAL_TOKENS_AS_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * Token counts of recent pre-tokenizer pieces (words, digit groups, punctuation and white-space
 * runs) that the tables below do not hold: longer ASCII pieces, and pieces of other text. The
 * tokenizer merges bytes only within a piece, so a text's count is the sum of its pieces'. Most
 * pieces recur (words, and the hex groups of ids), and this small table answers them without a
 * lookup in the tokenizer's table of 200,000 entries, which misses the CPU caches.
 */
const pieceTokens = new Map<string, number>();
const PIECES_KEPT = 8_192;
const LONGEST_KEPT_PIECE = 32;

/**
 * The tokenizer remembers the merges of the last 100,000 pieces it was given, by default: some
 * 27 MB once full, filled slowly by new ids and words, which looks like a leak. The table above
 * answers recurring pieces before the tokenizer sees them, so a small memory of its own is enough.
 */
const TOKENIZER_MERGES_KEPT = 10_000;
setMergeCacheSize(TOKENIZER_MERGES_KEPT);

function countPiece(piece: string): number {
  let tokens = pieceTokens.get(piece);
  if (tokens === undefined) {
    tokens = countO200kTokens(piece, SPECIAL_TOKENS_AS_TEXT);
    if (piece.length <= LONGEST_KEPT_PIECE) {
      if (pieceTokens.size >= PIECES_KEPT) pieceTokens.clear();
      pieceTokens.set(piece, tokens);
    }
  }
  return tokens;
}

/**
 * Token counts of two-character ASCII pieces by their character codes (0: not counted yet). A third
 * of the pieces of ids and prose have two characters: read here without cutting them out of the
 * text or looking them up in the table above. One character is always one token: o200k has a
 * token for every byte.
 */
const pairTokens = new Uint8Array(128 * 128);

function countPair(first: number, second: number): number {
  const index = (first << 7) | second;
  let tokens = pairTokens[index];
  if (tokens === 0) {
    tokens = countO200kTokens(String.fromCharCode(first, second), SPECIAL_TOKENS_AS_TEXT);
    pairTokens[index] = tokens;
  }
  return tokens;
}

/**
 * Token counts of ASCII pieces of three to eight characters (most of the others), in an
 * open-addressed table of two 32-bit words per piece: the first holds its length and its first four
 * characters (seven bits each), the second its other characters and its count (at most eight
 * tokens). A piece is looked up by its characters where they lie in the text, without cutting it
 * out, hashing a string or following pointers. Between two continuations the rest of the server's
 * work pushes the tables out of the CPU caches: a lookup here reads one cache line where the table
 * of strings above reads several, and a continuation's counting takes about half the time it did.
 */
const PACKED_SLOT_BITS = 14;
const PACKED_SLOTS = 1 << PACKED_SLOT_BITS;
/** Half the slots, so that a probe meets few others; the table starts again once they are taken. */
const PACKED_KEPT = PACKED_SLOTS >> 1;
const LONGEST_PACKED_PIECE = 8;
const packedPieces = new Int32Array(PACKED_SLOTS * 2);
let packedPiecesKept = 0;

function packedSlot(first: number, second: number): number {
  return Math.imul(first ^ Math.imul(second, 0x9e3779b1), 0x85ebca6b) >>> (32 - PACKED_SLOT_BITS);
}

/** The tokens of `text.slice(start, end)`, an ASCII piece of three to eight characters. */
function countShortPiece(text: string, start: number, end: number): number {
  const middle = start + 4 < end ? start + 4 : end;
  let first = (end - start) << 28;
  let second = 0;
  for (let at = start, shift = 0; at < middle; at++, shift += 7) first |= text.charCodeAt(at) << shift;
  for (let at = middle, shift = 0; at < end; at++, shift += 7) second |= text.charCodeAt(at) << shift;
  let slot = packedSlot(first, second);
  for (let stored = packedPieces[slot * 2]; stored !== 0; stored = packedPieces[slot * 2]) {
    const rest = packedPieces[slot * 2 + 1];
    if (stored === first && (rest & 0x0fffffff) === second) return rest >>> 28;
    slot = (slot + 1) & (PACKED_SLOTS - 1);
  }
  const tokens = countO200kTokens(text.slice(start, end), SPECIAL_TOKENS_AS_TEXT);
  if (packedPiecesKept >= PACKED_KEPT) {
    packedPieces.fill(0);
    packedPiecesKept = 0;
    slot = packedSlot(first, second);
  }
  packedPieces[slot * 2] = first;
  packedPieces[slot * 2 + 1] = second | (tokens << 28);
  packedPiecesKept++;
  return tokens;
}

export function countTokens(text: string): number {
  let total = 0;
  if (isAscii(text)) {
    for (let start = 0, end = 0; start < text.length; start = end) {
      end = asciiPieceEnd(text, start);
      const length = end - start;
      if (length === 1) total += 1;
      else if (length === 2) total += countPair(text.charCodeAt(start), text.charCodeAt(start + 1));
      else if (length <= LONGEST_PACKED_PIECE) total += countShortPiece(text, start, end);
      else total += countPiece(text.slice(start, end));
    }
  } else {
    for (const [piece] of text.matchAll(O200K_TOKEN_SPLIT_REGEX)) total += countPiece(piece);
  }
  return total;
}

const recurring = new Map<string, number>();
const RECURRING_KEPT = 1_000;

/**
 * `countTokens` for texts that recur verbatim, such as the control text or an account's identity:
 * the counts of the latest thousand such texts are kept.
 */
export function countRecurringTokens(text: string): number {
  let tokens = recurring.get(text);
  if (tokens === undefined) {
    tokens = countTokens(text);
    if (recurring.size >= RECURRING_KEPT) recurring.delete(recurring.keys().next().value!);
    recurring.set(text, tokens);
  }
  return tokens;
}

/** A text and its token count, counted before. */
export interface CountedText {
  text: string;
  tokens: number;
}

const WORD_END = /[A-Za-z0-9]/;
const WHITE_SPACE = /\s/;

/**
 * Whether the tokenizer always ends a token between `text[at - 1]` and `text[at]`: a space or tab
 * after anything but white space, or a line break after a letter or digit. No piece of o200k's
 * pre-tokenizer holds such a pair (white space only leads a word, a run of punctuation takes
 * only line breaks and slashes after it), and a piece ending there looks no further, so the text
 * before and the text after tokenize alone exactly as they do together.
 */
function isTokenBoundary(text: string, at: number): boolean {
  const next = text[at];
  if (next === ' ' || next === '\t') return !WHITE_SPACE.test(text[at - 1]);
  if (next === '\n' || next === '\r') return WORD_END.test(text[at - 1]);
  return false;
}

function firstBoundary(text: string): number {
  for (let at = 1; at < text.length; at++) if (isTokenBoundary(text, at)) return at;
  return -1;
}

function lastBoundary(text: string): number {
  for (let at = text.length - 1; at >= 1; at--) if (isTokenBoundary(text, at)) return at;
  return -1;
}

/**
 * The tokens of `parts` joined by `separator`, exactly as `countTokens` of the joined text, but
 * tokenizing only around the seams: each part is cut at its first and last token boundary, its
 * middle keeps the count it had alone, and only the stretches between cuts are counted again, with
 * the separators in them. A part without a boundary (a closing tag, say) cannot be cut: it lies
 * whole in the stretch around it, and the parts beside it still keep their middles.
 */
export function countJoinedTokens(parts: CountedText[], separator: string): number {
  let total = 0;
  // The text since the last cut, not counted yet; null before the first part.
  let stretch: string | null = null;
  for (const [index, { text, tokens }] of parts.entries()) {
    const first = firstBoundary(text);
    if (first < 0) {
      stretch = stretch === null ? text : stretch + separator + text;
      continue;
    }
    const head = text.slice(0, first);
    // The part's own count holds its head; a head after a stretch is counted with that stretch instead.
    total += stretch === null ? tokens : tokens - countTokens(head) + countTokens(stretch + separator + head);
    stretch = null;
    if (index < parts.length - 1) {
      stretch = text.slice(lastBoundary(text));
      total -= countTokens(stretch);
    }
  }
  return stretch === null ? total : total + countTokens(stretch);
}
