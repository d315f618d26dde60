import {
  RECENCY_WEIGHT,
  SHORT_TIER_STEP,
  TieredTerm,
  WeightedTerm,
  alternativeWords,
  decodeSearchCursor,
  encodeSearchCursor,
  heaviestFirst,
  holdingWeight,
  markSnippet,
  nextThreshold,
  parseSearchQuery,
  scoreBoundOutside,
  termScoreLimit,
  termWeight,
  validateSearch,
} from '../search';

describe('search queries', () => {
  it('reads plain words as alternatives, and quoted phrases and -exclusions as strict', () => {
    const parsed = parseSearchQuery('how often do we rotate "signing keys" -staging');
    expect(parsed).toEqual({ ok: true, value: { strict: '"signing keys" -staging', anyWords: 'how or often or do or we or rotate' } });
  });

  it('drops the words a search would read as operators, and reads an unclosed quote to the end', () => {
    expect(parseSearchQuery('keys or certificates and "nightly export')).toEqual({
      ok: true,
      value: { strict: '"nightly export"', anyWords: 'keys or certificates' },
    });
  });

  it.each([
    ['an empty query', '   '],
    ['a query of empty quotes', '""'],
    ['a query that only excludes', '-staging -prod'],
    ['an over-long query', 'x'.repeat(501)],
  ])('refuses %s as INVALID_INPUT naming the query', (_name, query) => {
    const parsed = parseSearchQuery(query);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatchObject({ code: 'INVALID_INPUT', details: [{ path: ['query'] }] });
  });

  it('keeps how the search scored (moment, term weights, mean length), the score and the event in a cursor, and refuses anything else', () => {
    const scoring = { scoredAt: new Date('2026-12-01T10:00:00.123Z'), terms: [{ lexeme: "it's", weight: 2.302585 }], averageLength: 17.25 };
    const cursor = { scoring, score: 0.123456789, eventId: 'e1' };
    expect(decodeSearchCursor(encodeSearchCursor(cursor))).toEqual(cursor);
    expect(decodeSearchCursor('bm90IGEgY3Vyc29y')).toBeNull();
    expect(decodeSearchCursor(Buffer.from('search2:[1,2]').toString('base64url'))).toBeNull();
    // A cursor of the ranking before term weights, which would score its pages otherwise.
    expect(decodeSearchCursor(Buffer.from('search:["2026-12-01T10:00:00.123Z",0.5,"e1"]').toString('base64url'))).toBeNull();
  });

  it('defaults the scope to the lineage with a session and to the account without, and needs a session for SESSION', () => {
    expect(validateSearch({ query: 'keys', sessionId: 's1' })).toMatchObject({ ok: true, value: { scope: 'LINEAGE' } });
    expect(validateSearch({ query: 'keys' })).toMatchObject({ ok: true, value: { scope: 'ACCOUNT', first: 50 } });
    expect(validateSearch({ query: 'keys', scope: 'SESSION' })).toMatchObject({ ok: false, error: { details: [{ path: ['sessionId'] }] } });
  });

  it('escapes a snippet for HTML and turns only the match markers into marks', () => {
    expect(markSnippet('a \u0002<b>\u0003 & "c"', '\u0002', '\u0003')).toBe('a <mark>&#60;b&#62;</mark> &#38; &#34;c&#34;');
  });
});

/** Whether a hit holding `held` (lexemes) matches the tsquery text `tier`. */
function matches(tier: string, held: string[]): boolean {
  const expression = tier
    .replace(/'[^']*'/g, (word) => String(held.includes(word.slice(1, -1))))
    .replace(/&/g, '&&')
    .replace(/\|/g, '||');
  return new Function(`return ${expression};`)() as boolean;
}

const weightOf = (terms: WeightedTerm[], held: string[]) =>
  terms.filter((term) => held.includes(term.lexeme)).reduce((sum, term) => sum + term.weight, 0);

describe('term weights', () => {
  it('weighs a rare word far above a word most events hold, and never below zero', () => {
    const rare = termWeight(800, 3);
    const name = termWeight(800, 500);
    expect(rare).toBeGreaterThan(5 * name);
    expect(termWeight(800, 800)).toBeGreaterThan(0);
    expect(termWeight(10, 40)).toBe(termWeight(10, 10));
  });

  it('rounds a weight, so that the weights a cursor carries score every page alike', () => {
    expect(String(termWeight(1234567, 89))).toMatch(/^\d+\.\d{1,6}$/);
  });

  it('orders terms heaviest first, ties by lexeme', () => {
    expect(
      heaviestFirst([
        { lexeme: 'b', weight: 1 },
        { lexeme: 'c', weight: 2 },
        { lexeme: 'a', weight: 1 },
      ]).map((term) => term.lexeme),
    ).toEqual(['c', 'a', 'b']);
  });
});

describe('search tiers', () => {
  // Limits as the statistics give them: each word found once per event, the name also as a speaker.
  const terms: TieredTerm[] = heaviestFirst([
    { lexeme: 'lgbtq', weight: 5, limit: termScoreLimit(5, 1, false) },
    { lexeme: 'support', weight: 3, limit: termScoreLimit(3, 1, false) },
    { lexeme: 'group', weight: 2.5, limit: termScoreLimit(2.5, 2, false) },
    { lexeme: 'go', weight: 1, limit: termScoreLimit(1, 1, false) },
    { lexeme: 'carolin', weight: 0.4, limit: termScoreLimit(0.4, 1, true) },
  ]);

  it('holds exactly the hits whose terms weigh at least the threshold', () => {
    for (const threshold of [0, 0.4, 1, 2.9, 3.5, 5, 6, 8.4, 11.9, 12]) {
      const tier = holdingWeight(threshold, terms);
      for (let subset = 1; subset < 1 << terms.length; subset++) {
        const held = terms.filter((_, index) => subset & (1 << index)).map((term) => term.lexeme);
        expect([threshold, held, tier !== null && matches(tier, held)]).toEqual([threshold, held, weightOf(terms, held) >= threshold - 1e-9]);
      }
    }
    expect(holdingWeight(12, terms)).toBeNull();
    expect(holdingWeight(1, [])).toBeNull();
  });

  it('reads any term at all at a threshold no heavier than the lightest, and quotes lexemes as the database reads them', () => {
    expect(holdingWeight(0.4, terms)).toBe("'lgbtq' | 'support' | 'group' | 'go' | 'carolin'");
    expect(holdingWeight(0, [{ lexeme: "o'neil\\", weight: 1 }])).toBe("'o''neil\\\\'");
  });

  it('factors a tier on its heaviest term instead of listing every combination', () => {
    expect(holdingWeight(6, terms)).toBe("'lgbtq' & ('support' | 'group' | 'go') | 'support' & ('group' & ('go'))");
  });

  it("bounds a term's part of a score by how often one event holds it: once is about its weight, a speaker's name more", () => {
    expect(termScoreLimit(2, 1, false)).toBeCloseTo((2 * 1.8) / (1 + 0.8 * 0.9), 9);
    expect(termScoreLimit(2, 1, false)).toBeLessThan(2 * 1.1);
    expect(termScoreLimit(2, 1, true)).toBeGreaterThan(termScoreLimit(2, 2, false));
    expect(termScoreLimit(2, 1000, false)).toBeLessThan(2 * 1.8);
  });

  it('bounds a hit outside a tier by the heaviest limits its lighter terms can sum to', () => {
    // Outside the tier of 6: at most support, group and carolin (5.9), or lgbtq and carolin (5.4).
    const bound = scoreBoundOutside(6, terms) - RECENCY_WEIGHT;
    const limitOf = (lexeme: string) => terms.find((term) => term.lexeme === lexeme)!.limit;
    expect(bound).toBeCloseTo(Math.max(limitOf('support') + limitOf('group') + limitOf('carolin'), limitOf('lgbtq') + limitOf('carolin')), 9);
    expect(scoreBoundOutside(0.4, terms)).toBe(RECENCY_WEIGHT);
  });

  it('stops at a full page that no hit outside the tier can beat', () => {
    expect(nextThreshold(6, terms, 11, 11, scoreBoundOutside(6, terms))).toBeNull();
  });

  it('widens a full page that hits outside could beat to the highest tier whose outside cannot, and narrows its step for a tier that fell short', () => {
    const lowest = scoreBoundOutside(6, terms) - 0.01;
    const next = nextThreshold(6, terms, 11, 11, lowest)!;
    expect(next).toBeLessThan(6);
    expect(scoreBoundOutside(next, terms)).toBeLessThanOrEqual(lowest);
    // Any higher threshold below 6 would leave a hit outside that could beat the page.
    expect(scoreBoundOutside(next + 1e-6, terms)).toBeGreaterThan(lowest);
    expect(nextThreshold(6, terms, 4, 11, 30)).toBeCloseTo(6 * SHORT_TIER_STEP, 9);
    // At the lightest term, a tier reads every match, which is exact whatever it holds.
    expect(nextThreshold(0.5, terms, 4, 11, 30)).toBe(0.4);
    expect(nextThreshold(0.4, terms, 4, 11, 1)).toBeNull();
  });

  it('takes the plain words of a parsed query', () => {
    const parsed = parseSearchQuery('"signing keys" rotate often -staging');
    expect(parsed.ok && alternativeWords(parsed.value)).toEqual(['rotate', 'often']);
  });
});
