import type { Viewer } from '../viewer';

/** How to make each of a context's loaders for a viewer. */
export type LoaderFactories<Loaders, Services> = { [Name in keyof Loaders]: (viewer: Viewer, services: Services) => Loaders[Name] };

const VIEWER = Symbol('viewer');
const SERVICES = Symbol('services');

/**
 * Makes loaders that are each made on first use. An operation uses a few of the twenty or so the
 * modules offer, and a new context per request made all of them, each with its closures and its
 * cache: 2% of the server's CPU under `postMessage` load. The getters live on a prototype made
 * once here, so a new set of loaders costs one small object.
 */
export function lazyLoaders<Loaders extends object, Services>(factories: LoaderFactories<Loaders, Services>): (viewer: Viewer, services: Services) => Loaders {
  class MadeOnFirstUse {
    readonly [VIEWER]: Viewer;
    readonly [SERVICES]: Services;

    constructor(viewer: Viewer, services: Services) {
      this[VIEWER] = viewer;
      this[SERVICES] = services;
    }
  }
  for (const [name, make] of Object.entries(factories) as [string, (viewer: Viewer, services: Services) => unknown][]) {
    Object.defineProperty(MadeOnFirstUse.prototype, name, {
      get(this: MadeOnFirstUse) {
        const loader = make(this[VIEWER], this[SERVICES]);
        Object.defineProperty(this, name, { value: loader, enumerable: true });
        return loader;
      },
    });
  }
  return (viewer, services) => new MadeOnFirstUse(viewer, services) as unknown as Loaders;
}
