import { describe, expect, it } from '@jest/globals';
import type { ManifestItemRowFragment } from '../../../gql/graphql';
import { recommendationAsSource, recommendationKey } from '../RecommendedSourcesChoice';

function item(overrides: Partial<ManifestItemRowFragment>): ManifestItemRowFragment {
  return {
    kind: 'SESSION_EVENTS',
    status: 'INCLUDED',
    origin: 'RECOMMENDED',
    score: 0.5,
    relevance: 'matches "keys"',
    sessionId: null,
    fromEventId: null,
    toEventId: null,
    eventId: null,
    url: null,
    version: null,
    blockId: null,
    path: null,
    cid: null,
    tokenCount: 12,
    hash: 'h',
    ...overrides,
  } as ManifestItemRowFragment;
}

describe('a kept recommendation cited instead', () => {
  it('cites a recommended resource block by its exact version and block', () => {
    const block = item({ kind: 'RESOURCE', url: 'https://runbooks.example/keys', version: '3', blockId: 'rotation', cid: 'abc' });
    expect(recommendationAsSource(block)).toEqual({
      kind: 'RESOURCE',
      url: 'https://runbooks.example/keys',
      version: '3',
      blockId: 'rotation',
      relevance: 'matches "keys"',
    });
  });

  it('cites a recommended memory entry by its path and content id', () => {
    expect(recommendationAsSource(item({ kind: 'MEMORY', path: '/notes/on-call', cid: 'c1d' }))).toEqual({
      kind: 'MEMORY',
      path: '/notes/on-call',
      cid: 'c1d',
      relevance: 'matches "keys"',
    });
  });

  it('tells two blocks of one resource apart', () => {
    const first = item({ kind: 'RESOURCE', url: 'https://runbooks.example/keys', version: '3', blockId: 'a' });
    const second = item({ kind: 'RESOURCE', url: 'https://runbooks.example/keys', version: '3', blockId: 'b' });
    expect(recommendationKey(first)).not.toBe(recommendationKey(second));
  });
});
