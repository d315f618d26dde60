import { Arg, Ctx, ID, Query, Resolver } from 'type-graphql';
import { isId } from '../shared/ids';
import type { Context } from './context';
import { NodeTypeName, Node, asNode } from '../shared/graphql/node.type';

@Resolver()
export class NodeResolver {
  @Query(() => Node, {
    nullable: true,
    description:
      "The viewer's Session, Event, ContinuationEdge, ProjectionManifest or Run with this id; null when there is none (also for another account's object or an id that is no UUID).",
  })
  async node(@Arg('id', () => ID, { description: 'The id of any node.' }) id: string, @Ctx() ctx: Context): Promise<object | null> {
    if (!isId(id)) return null;
    // Ids are unique across tables: look each up in turn and stop at the first hit.
    const lookups: [NodeTypeName, () => Promise<object | null>][] = [
      ['Session', () => ctx.loaders.sessionById.load(id)],
      ['Event', () => ctx.loaders.eventById.load(id)],
      ['ContinuationEdge', () => ctx.loaders.edgeById.load(id)],
      ['ProjectionManifest', () => ctx.loaders.manifestById.load(id)],
      ['Run', () => ctx.loaders.runById.load(id)],
    ];
    for (const [typeName, lookup] of lookups) {
      const found = await lookup();
      if (found) return asNode(found, typeName);
    }
    return null;
  }
}
