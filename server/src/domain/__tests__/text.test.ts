import { UNSTORABLE_TEXT_MESSAGE, unstorableText } from '../text';

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
