/**
 * o200k's pre-tokenizer on ASCII text, by hand: the tokenizer's own regular expression spends most
 * of a count on Unicode classes that ASCII text never needs. Applied to ASCII, its alternatives,
 * tried in order at each position, come down to:
 *
 * 1. a word: an optional lead (any character but a letter, a digit or a line break) before
 *    letters, then a run of capitals, a run of small letters, and an optional contraction
 *    ('s 'd 'm 't 'll 've 're, in any case);
 * 2. one to three digits;
 * 3. an optional space, a run of other characters (punctuation, symbols), then any run of line
 *    breaks and slashes;
 * 4. white space: up to its last line break when it holds one; else all of it at the end of the
 *    text, all but its last character before other text, or that one character alone.
 */

const UPPER = 1;
const LOWER = 2;
const DIGIT = 3;
const LINE_BREAK = 4;
/** White space other than line breaks: space, tab, vertical tab, form feed. */
const BLANK = 5;
const OTHER = 6;

const CLASSES = new Uint8Array(128).map((_, code) => {
  const char = String.fromCharCode(code);
  if (char >= 'A' && char <= 'Z') return UPPER;
  if (char >= 'a' && char <= 'z') return LOWER;
  if (char >= '0' && char <= '9') return DIGIT;
  if (char === '\r' || char === '\n') return LINE_BREAK;
  if (char === ' ' || char === '\t' || char === '\v' || char === '\f') return BLANK;
  return OTHER;
});

/** Class of the character at `at`, 0 past the end. Callers ensure the text is ASCII. */
function classAt(text: string, at: number): number {
  return at < text.length ? CLASSES[text.charCodeAt(at)] : 0;
}

const isLetter = (kind: number) => kind === UPPER || kind === LOWER;
const isWhiteSpace = (kind: number) => kind === LINE_BREAK || kind === BLANK;

/** The length of a contraction ('s, 'LL, ...) at `at`, or 0. */
function contractionLength(text: string, at: number): number {
  if (text.charCodeAt(at) !== 39 /* ' */) return 0;
  const first = text.charAt(at + 1).toLowerCase();
  if (first === 's' || first === 'd' || first === 'm' || first === 't') return 2;
  const pair = text.slice(at + 1, at + 3).toLowerCase();
  return pair === 'll' || pair === 've' || pair === 're' ? 3 : 0;
}

const NON_ASCII = /[^\x00-\x7f]/;

export function isAscii(text: string): boolean {
  return !NON_ASCII.test(text);
}

/** Where the piece that starts at `start` of an ASCII `text` ends. */
export function asciiPieceEnd(text: string, start: number): number {
  const kind = classAt(text, start);
  const next = classAt(text, start + 1);
  if (isLetter(kind) || (kind !== LINE_BREAK && kind !== DIGIT && isLetter(next))) {
    let end = isLetter(kind) ? start : start + 1;
    while (classAt(text, end) === UPPER) end++;
    while (classAt(text, end) === LOWER) end++;
    return end + contractionLength(text, end);
  }
  if (kind === DIGIT) {
    let end = start + 1;
    while (end < start + 3 && classAt(text, end) === DIGIT) end++;
    return end;
  }
  if (kind === OTHER || (text.charCodeAt(start) === 32 && next === OTHER)) {
    let end = kind === OTHER ? start : start + 1;
    while (classAt(text, end) === OTHER) end++;
    for (let code = text.charCodeAt(end); code === 13 || code === 10 || code === 47; code = text.charCodeAt(++end));
    return end;
  }
  let end = start;
  let lastLineBreak = -1;
  for (let at = start; isWhiteSpace(classAt(text, at)); at++) {
    if (classAt(text, at) === LINE_BREAK) lastLineBreak = at;
    end = at + 1;
  }
  if (lastLineBreak >= 0) return lastLineBreak + 1;
  if (end === text.length || end - start === 1) return end;
  return end - 1;
}
