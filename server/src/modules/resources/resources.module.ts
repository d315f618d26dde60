import { MemoryResolver, ResourceResolver } from './resource.resolver';

/** Versioned resources and memory entries that projections cite exactly. */
export const resourcesResolvers = [ResourceResolver, MemoryResolver] as const;
