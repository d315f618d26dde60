import { describe, expect, it, jest } from '@jest/globals';
import { randomUUID, RandomSource } from '../random-uuid';

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Web Crypto as a page served over plain HTTP from another host has it: no randomUUID. */
const secureCrypto = globalThis.crypto;
const insecureContext: RandomSource = { getRandomValues: (array) => secureCrypto.getRandomValues(array) };

describe('randomUUID', () => {
  it('makes distinct v4 UUIDs where the page has no crypto.randomUUID', () => {
    const ids = Array.from({ length: 500 }, () => randomUUID(insecureContext));
    for (const id of ids) expect(id).toMatch(V4);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('sets the version and variant bits whatever the random bytes are', () => {
    const filledWith = (byte: number): RandomSource => ({
      getRandomValues: (array) => {
        new Uint8Array(array!.buffer).fill(byte);
        return array;
      },
    });
    const [allOnes, allZeros] = [filledWith(0xff), filledWith(0)];
    expect(randomUUID(allOnes)).toBe('ffffffff-ffff-4fff-bfff-ffffffffffff');
    expect(randomUUID(allZeros)).toBe('00000000-0000-4000-8000-000000000000');
  });

  it('uses crypto.randomUUID where the page has it', () => {
    const native = jest.fn(() => '11111111-2222-4333-8444-555555555555');
    expect(randomUUID({ ...insecureContext, randomUUID: native })).toBe('11111111-2222-4333-8444-555555555555');
    expect(native).toHaveBeenCalledTimes(1);
  });

  it('works by default on a page whose crypto lacks randomUUID', () => {
    const original = Object.getOwnPropertyDescriptor(globalThis, 'crypto')!;
    Object.defineProperty(globalThis, 'crypto', { configurable: true, value: insecureContext });
    try {
      expect(randomUUID()).toMatch(V4);
    } finally {
      Object.defineProperty(globalThis, 'crypto', original);
    }
  });
});
