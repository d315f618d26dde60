import { canonicalJson, keepCanonicalJson, keptCanonicalJson } from '../canonical-json';

describe('canonicalJson', () => {
  it('sorts object keys at every depth and writes no white space', () => {
    expect(canonicalJson({ b: 1, a: { d: [true, null], c: 'x' } })).toBe('{"a":{"c":"x","d":[true,null]},"b":1}');
  });

  it('encodes equal values identically whatever their key order', () => {
    expect(canonicalJson({ x: 1, y: [{ q: 2, p: 3 }] })).toBe(canonicalJson({ y: [{ p: 3, q: 2 }], x: 1 }));
  });

  it('drops undefined properties and writes undefined as null elsewhere', () => {
    expect(canonicalJson({ a: undefined, b: 2 })).toBe('{"b":2}');
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson([undefined, 1])).toBe('[null,1]');
  });

  it('orders keys by UTF-16 code units, not by locale', () => {
    expect(canonicalJson({ 'ｚ': 5, '😀': 4, 'é': 3, b: 2, B: 1 })).toBe('{"B":1,"b":2,"é":3,"😀":4,"ｚ":5}');
  });

  it('sorts many keys as it sorts a few', () => {
    const keys = Array.from({ length: 40 }, (_, index) => `k${(index * 7) % 40}`);
    const record = Object.fromEntries(keys.map((key) => [key, 1]));
    const sorted = [...keys].sort();
    expect(canonicalJson(record)).toBe(`{${sorted.map((key) => `"${key}":1`).join(',')}}`);
    expect(canonicalJson(Object.fromEntries(keys.slice(0, 20).map((key) => [key, 1])))).toBe(`{${[...keys.slice(0, 20)].sort().map((key) => `"${key}":1`).join(',')}}`);
  });

  it('encodes an object kept with its encoding once, within anything that holds it', () => {
    let reads = 0;
    const items = [{ b: 2, get a() { reads += 1; return 'x'; } }];
    const encoded = keepCanonicalJson(items);
    expect(encoded).toBe('[{"a":"x","b":2}]');
    expect(keptCanonicalJson(items)).toBe(encoded);
    expect(canonicalJson({ items, n: 1 })).toBe('{"items":[{"a":"x","b":2}],"n":1}');
    expect(reads).toBe(1);
    expect(keptCanonicalJson({ b: 2 })).toBeUndefined();
    expect(keepCanonicalJson('text')).toBe('"text"');
  });

  it('refuses values JSON cannot carry', () => {
    expect(() => canonicalJson(Number.NaN)).toThrow(TypeError);
    expect(() => canonicalJson(() => 1)).toThrow(TypeError);
  });
});
