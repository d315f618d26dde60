import { randomUUID } from 'node:crypto';
import o200k, { countTokens as countWithTokenizer } from 'gpt-tokenizer/encoding/o200k_base';
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
import { asciiPieceEnd, isAscii } from '../ascii-pieces';
import { countJoinedTokens, countTokens } from '../tokens';

/** A small deterministic generator, so that a failure can be replayed. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const FRAGMENTS = [
  'word', 'Word', 'WORD', 'receipts', "don't", "it's", 'café', 'naïve', '東京', 'это', '🙂', '123', '4567890', '3.14',
  '.', ',', '!', '?', '...', '"', "'", '-', '--', '/', '</excerpt>', '<event>', '(x)', '[1]', '#', '=>', '_',
  ' ', '  ', '\t', '\n', '\n\n', ' \n', '\n ', '\r\n', '<|endoftext|>',
];
/** Few, short pieces: seams and cut points then often fall on the pre-tokenizer's odd cases. */
const EDGES = ['a', 'Ab', 'b1', '9', '.', ',', "'s", "'", '\n', ' ', '\t', '东', 'é', '🙂', '/', '\n\n', '  '];
const SEPARATORS = ['\n\n', '\n', ' ', '', '. ', '\n\n\n'];

describe('token counts', () => {
  it('counts text that looks like a special token as ordinary text', () => {
    expect(countTokens('hi <|endoftext|> there')).toBeGreaterThan(3);
  });

  it('counts every ASCII character, and every pair of them, as the tokenizer does', () => {
    const ascii = Array.from({ length: 128 }, (_, code) => String.fromCharCode(code));
    for (const first of ascii) {
      expect({ text: first, tokens: countTokens(first) }).toEqual({ text: first, tokens: countWithTokenizer(first, { disallowedSpecial: new Set() }) });
      for (const second of ascii) {
        const pair = first + second;
        expect({ text: pair, tokens: countTokens(pair) }).toEqual({ text: pair, tokens: countWithTokenizer(pair, { disallowedSpecial: new Set() }) });
      }
    }
  });

  it('counts any text exactly as the tokenizer does, also after its table of recent pieces was renewed', () => {
    const next = random(7);
    const pick = <T>(items: T[]) => items[Math.floor(next() * items.length)];
    // More distinct pieces than the table keeps, long pieces among them, so that it is emptied and refilled.
    const texts = Array.from({ length: 3_000 }, (_, index) =>
      index % 3 === 0
        ? `[event ${randomUUID()} seq ${index} USER_MESSAGE] ${JSON.stringify({ edgeId: randomUUID(), n: index })}`
        : index % 3 === 1
          ? Array.from({ length: Math.floor(next() * 40) }, () => pick(FRAGMENTS)).join(pick(['', ' ']))
          : `${'x'.repeat(index % 50)}${'!'.repeat(index % 40)}${' '.repeat(index % 45)}end`,
    );
    for (const text of [...texts, ...texts]) {
      expect({ text, tokens: countTokens(text) }).toEqual({ text, tokens: countWithTokenizer(text, { disallowedSpecial: new Set() }) });
    }
    expect(countTokens('')).toBe(0);
  });

  it('counts joined parts exactly as counting the joined text, whatever meets at the seams', () => {
    const next = random(20261130);
    const pick = <T>(items: T[]) => items[Math.floor(next() * items.length)];
    const edges = (max: number) => Array.from({ length: Math.floor(next() * max) }, () => pick(EDGES)).join('');
    const parts = {
      // A word and a space in the middle, so that the part has a cut point and the seams are worked out.
      cut: () => `${edges(6)}ab ${edges(6)}`,
      // No white space: nothing to cut at (as in a closing tag), so the part lies whole in a seam.
      whole: () => Array.from({ length: 1 + Math.floor(next() * 4) }, () => pick(EDGES.filter((edge) => !/\s/.test(edge)))).join(''),
      mixed: () => Array.from({ length: Math.floor(next() * 30) }, () => pick(FRAGMENTS)).join(pick(['', ' ', ''])),
    };
    for (let trial = 0; trial < 9_000; trial++) {
      // One kind of part per trial, or any kind for each part, uncuttable ones among cuttable ones.
      const kinds = [['cut'], ['mixed'], ['cut', 'whole', 'mixed']][trial % 3] as (keyof typeof parts)[];
      const texts = Array.from({ length: 1 + Math.floor(next() * 5) }, () => parts[pick(kinds)]());
      const separator = pick(SEPARATORS);
      const counted = texts.map((text) => ({ text, tokens: countTokens(text) }));
      const joined = texts.join(separator);
      expect({ joined, tokens: countJoinedTokens(counted, separator) }).toEqual({ joined, tokens: countTokens(joined) });
    }
  });

  it('counts pieces of three to eight characters exactly, also once their table is full and starts again', () => {
    const next = random(20261206);
    const ascii = (from: number, to: number) => String.fromCharCode(from + Math.floor(next() * (to - from)));
    // Words with a leading space or mark, digits and punctuation runs, any ASCII character among
    // them: over 20,000 distinct short pieces, more than the table keeps, each counted twice.
    const texts = Array.from({ length: 20_000 }, (_, index) => {
      const word = Array.from({ length: 2 + (index % 7) }, () => ascii(97, 123)).join('');
      const marks = Array.from({ length: 3 + (index % 6) }, () => ascii(33, 48)).join('');
      return `${[' ', '"', '-', '='][index % 4]}${word}${marks}${ascii(0, 128)}${ascii(0, 128)}${ascii(0, 128)}${index % 1000}`;
    });
    for (const text of [...texts, ...texts]) {
      expect({ text, tokens: countTokens(text) }).toEqual({ text, tokens: countWithTokenizer(text, { disallowedSpecial: new Set() }) });
    }
  });

  it('keeps the tokenizer\'s memory of merged pieces small however many new pieces it counts', () => {
    // New ids and words reach the tokenizer for as long as the server runs; its own default would keep 100,000 merges.
    for (let index = 0; index < 30_000; index++) countTokens(`${randomUUID()} ${index.toString(36)}zq`);
    const tokenizer = o200k as unknown as { bytePairEncodingCoreProcessor: { mergeCache: Map<string, unknown> } };
    expect(tokenizer.bytePairEncodingCoreProcessor.mergeCache.size).toBeGreaterThan(0);
    expect(tokenizer.bytePairEncodingCoreProcessor.mergeCache.size).toBeLessThanOrEqual(10_000);
  });

  it('counts the sections of a context as the whole', () => {
    const sections = [
      'Purpose: Plan the rollout.\nCurrent request: Write the plan.',
      '<excerpt session="s" from="a" to="b" relevance="the decision">\n[event a seq 1 USER_MESSAGE] Receipts move.\n</excerpt>',
      '- more omitted sources: read_manifest 0f2c',
    ];
    const counted = sections.map((text) => ({ text, tokens: countTokens(text) }));
    expect(countJoinedTokens(counted, '\n\n')).toBe(countTokens(sections.join('\n\n')));
    expect(countJoinedTokens([], '\n\n')).toBe(0);
  });
});

describe('the pre-tokenizer on ASCII text', () => {
  it('cuts ASCII text into the pieces the tokenizer cuts it into', () => {
    const next = random(31);
    // Every class of ASCII character the pre-tokenizer tells apart, and contractions whole and in part.
    const alphabet = ['a', 'b', 'z', 'A', 'B', 'Z', 's', 'S', 'l', 'L', 'v', 'e', 'r', 'd', 'm', 't', 'T', "'", '0', '7', '9',
      ' ', ' ', '\t', '\v', '\f', '\n', '\r', '/', '(', '"', '-', '.', '_', '$', '\x00', '\x1f', '\x7f',
      "'re", "'Re", "'ve", "'VE", "'ll", "'lL", "'s", "'D", "'m", "'t", "'r", "'v", "'l"];
    for (let trial = 0; trial < 20_000; trial++) {
      const text = Array.from({ length: 1 + Math.floor(next() * 14) }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
      const pieces: string[] = [];
      for (let start = 0, end = 0; start < text.length; start = end) {
        end = asciiPieceEnd(text, start);
        pieces.push(text.slice(start, end));
      }
      expect({ text, pieces }).toEqual({ text, pieces: [...text.matchAll(O200K_TOKEN_SPLIT_REGEX)].map(([piece]) => piece) });
    }
  });

  it('tells ASCII text from other text', () => {
    expect(isAscii('plain text\n\t~')).toBe(true);
    expect(isAscii('café')).toBe(false);
  });
});
