import { Field, ID, InterfaceType } from 'type-graphql';

export type NodeTypeName = 'Session' | 'Event' | 'ContinuationEdge' | 'ProjectionManifest' | 'Run';

/** The type of each object `Query.node` found; entities carry no GraphQL type of their own. */
const foundTypes = new WeakMap<object, NodeTypeName>();

/** `found` as the node of type `typeName`. */
export function asNode<T extends object>(found: T, typeName: NodeTypeName): T {
  foundTypes.set(found, typeName);
  return found;
}

@InterfaceType({
  description: 'An object with a globally unique id, which Query.node finds again (Relay\'s Node).',
  resolveType: (found: object) => foundTypes.get(found),
})
export abstract class Node {
  @Field(() => ID, { description: 'Globally unique: a UUID that no other object of any type has.' })
  id: string;
}
