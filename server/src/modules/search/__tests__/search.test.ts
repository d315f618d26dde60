import { MAX_TIERED_WORDS, alternativeWords, decodeSearchCursor, encodeSearchCursor, markSnippet, matchTiers, parseSearchQuery, validateSearch } from '../search';

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

  it('keeps the moment of scoring, the score and the event in a cursor, and refuses anything else', () => {
    const cursor = { scoredAt: new Date('2026-12-01T10:00:00.123Z'), score: 0.123456789, eventId: 'e1' };
    expect(decodeSearchCursor(encodeSearchCursor(cursor))).toEqual(cursor);
    expect(decodeSearchCursor('bm90IGEgY3Vyc29y')).toBeNull();
    expect(decodeSearchCursor(Buffer.from('search:[1,2]').toString('base64url'))).toBeNull();
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

/** Whether a hit holding `held` (tsquery texts of single lexemes) matches the tsquery text `tier`. */
function matches(tier: string, held: string[]): boolean {
  const expression = tier.replace(/'[^']*'/g, (word) => String(held.includes(word))).replace(/&/g, '&&').replace(/\|/g, '||');
  return new Function(`return ${expression};`)() as boolean;
}

describe('search tiers', () => {
  it('reads from the hits holding every word, then one fewer, down to any one', () => {
    const words = ["'a'", "'b'", "'c'", "'d'", "'e'"];
    const tiers = matchTiers(words);
    expect(tiers).toHaveLength(words.length);
    for (let subset = 0; subset < 1 << words.length; subset++) {
      const held = words.filter((_, index) => subset & (1 << index));
      tiers.forEach((tier, index) => expect([held, index, matches(tier, held)]).toEqual([held, index, held.length >= words.length - index]));
    }
    expect(matchTiers(["'a'"])).toEqual(["('a')"]);
  });

  it('factors each tier on its first word instead of listing every combination', () => {
    expect(matchTiers(["'bucket'", "'export'", "'night'"])).toEqual([
      "('bucket') & ('export') & ('night')",
      "('bucket') & (('export') | ('night')) | ('export') & ('night')",
      "('bucket') | ('export') | ('night')",
    ]);
  });

  it('keeps a word the database split into parts together, and ranks a long question in one tier', () => {
    expect(matchTiers(["'eu-west' & 'eu' & 'west'", "'bucket'"])[0]).toBe("('eu-west' & 'eu' & 'west') & ('bucket')");
    const many = Array.from({ length: MAX_TIERED_WORDS + 1 }, (_, index) => `'w${index}'`);
    expect(matchTiers(many)).toEqual([many.map((word) => `(${word})`).join(' | ')]);
    expect(matchTiers([])).toEqual([]);
  });

  it('takes the plain words of a parsed query', () => {
    const parsed = parseSearchQuery('"signing keys" rotate often -staging');
    expect(parsed.ok && alternativeWords(parsed.value)).toEqual(['rotate', 'often']);
  });
});
