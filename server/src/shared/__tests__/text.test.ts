import { UNSTORABLE_TEXT_MESSAGE, storableText, storableValue, unstorableText } from '../text';

describe('text the database cannot store', () => {
  it('finds NUL and unpaired surrogates, at any depth, by path', () => {
    const input = { title: 'a\u0000b', blocks: [{ id: 'ok', text: 'lone \ud800 high' }, { id: 'x\udc00', text: 'fine' }], n: 3 };
    expect(unstorableText(input, ['input'])).toEqual([
      { path: ['input', 'title'], message: UNSTORABLE_TEXT_MESSAGE },
      { path: ['input', 'blocks', '0', 'text'], message: UNSTORABLE_TEXT_MESSAGE },
      { path: ['input', 'blocks', '1', 'id'], message: UNSTORABLE_TEXT_MESSAGE },
    ]);
  });

  it('finds them in the keys of JSON objects too', () => {
    expect(unstorableText({ 'a\u0000': 1 }, ['data'])).toEqual([{ path: ['data', 'a\u0000'], message: UNSTORABLE_TEXT_MESSAGE }]);
  });

  it('accepts paired surrogates, other control characters and non-text values', () => {
    expect(unstorableText({ emoji: '😀 \ud83d\ude00', tab: '\t\u0001\u007f', at: new Date(0), none: null, on: true }, [])).toEqual([]);
  });

  it('finds a surrogate at either end of a string', () => {
    expect(unstorableText('\udc00abc', ['s'])).toHaveLength(1);
    expect(unstorableText('abc\ud800', ['s'])).toHaveLength(1);
  });
});

describe('mending text the server writes from elsewhere', () => {
  it('replaces each NUL and unpaired surrogate by U+FFFD, one code unit for one, and keeps pairs', () => {
    const text = 'a\u0000b \ud800 c\udc00 😀';
    expect(storableText(text)).toBe('a\ufffdb \ufffd c\ufffd 😀');
    expect(storableText(text)).toHaveLength(text.length);
  });

  it('mends strings and keys at any depth, and returns a value that needs nothing as it is', () => {
    expect(storableValue({ 'k\u0000': ['x\u0000', { y: '\udc00' }], n: 1 })).toEqual({ 'k\ufffd': ['x\ufffd', { y: '\ufffd' }], n: 1 });
    const fine = { a: ['b'], c: null };
    expect(storableValue(fine)).toBe(fine);
  });
});
