import { lazyLoaders } from '../graphql/lazy-loaders';
import type { Viewer } from '../viewer';

const viewer = { accountId: 'a' } as Viewer;

describe('loaders made on first use', () => {
  it('makes a loader only when it is first read, once per set, with the set’s viewer and services', () => {
    const made: string[] = [];
    const createLoaders = lazyLoaders<{ one: string; two: string }, { prefix: string }>({
      one: (who, services) => (made.push('one'), `${services.prefix}:${who.accountId}:1`),
      two: (who, services) => (made.push('two'), `${services.prefix}:${who.accountId}:2`),
    });
    const loaders = createLoaders(viewer, { prefix: 'p' });
    expect(made).toEqual([]);
    expect(loaders.one).toBe('p:a:1');
    expect(loaders.one).toBe('p:a:1');
    expect(made).toEqual(['one']);
    const others = createLoaders({ accountId: 'b' } as Viewer, { prefix: 'q' });
    expect(others.one).toBe('q:b:1');
    expect(made).toEqual(['one', 'one']);
    expect(loaders.two).toBe('p:a:2');
    expect(made).toEqual(['one', 'one', 'two']);
  });
});
