import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { SessionEntity } from '../../conversation/session.entity';
import { SessionStatus } from '../../conversation/sessions';
import { Session } from '../../conversation/graphql/session.type';
import type { ContinuationContext } from './continuation.context';
import type { ContinuationEdgeEntity } from '../continuation-edge.entity';
import type { ProjectionManifestEntity } from '../projection-manifest.entity';
import { ContinuationEdge, LineageNode, ResourceRef } from './continuation.type';

/** What the continuation module adds to the conversation's Session: its edges, lineage and carried pins. */
@Resolver(() => Session)
export class SessionLineageResolver {
  @FieldResolver(() => ContinuationEdge, {
    nullable: true,
    description: 'The edge this session was continued from; null unless kind is CONTINUATION.',
  })
  continuedFrom(@Root() session: SessionEntity, @Ctx() ctx: ContinuationContext): Promise<ContinuationEdgeEntity | null> {
    return ctx.loaders.edgeBySuccessorId.load(session.id);
  }

  @FieldResolver(() => Session, { nullable: true, description: 'The session this one continues; null unless kind is CONTINUATION.' })
  async predecessor(@Root() session: SessionEntity, @Ctx() ctx: ContinuationContext): Promise<SessionEntity | null> {
    const edge = await ctx.loaders.edgeBySuccessorId.load(session.id);
    return edge ? ctx.loaders.sessionById.load(edge.predecessorId) : null;
  }

  @FieldResolver(() => [ContinuationEdge], { description: 'Successor edges, newest first. More than one means someone branched.' })
  continuations(@Root() session: SessionEntity, @Ctx() ctx: ContinuationContext): Promise<ContinuationEdgeEntity[]> {
    return ctx.loaders.edgesByPredecessorId.load(session.id);
  }

  @FieldResolver(() => Session, {
    description: 'The session at the end of the newest continuation chain from here; itself when it has no successor.',
  })
  async currentContinuation(@Root() session: SessionEntity, @Ctx() ctx: ContinuationContext): Promise<SessionEntity> {
    if (session.status !== SessionStatus.CONTINUED) return session;
    return (await ctx.loaders.currentContinuationById.load(session.id)) ?? session;
  }

  @FieldResolver(() => Session, { description: 'First session of the lineage (walking predecessors back to the start).' })
  async origin(@Root() session: SessionEntity, @Ctx() ctx: ContinuationContext): Promise<SessionEntity> {
    return (await ctx.loaders.sessionById.load(session.originId)) ?? session;
  }

  @FieldResolver(() => [Session], {
    description: 'Origin first, this session last: one ordered path, resolved in one database round trip.',
  })
  lineage(@Root() session: SessionEntity, @Ctx() ctx: ContinuationContext): Promise<SessionEntity[]> {
    return ctx.services.lineage.lineage(ctx.viewer, session);
  }

  @FieldResolver(() => [LineageNode], {
    description: "Every session continued from this one's origin, with depth from the origin: the whole tree, for drawing it.",
  })
  async lineageTree(@Root() session: SessionEntity, @Ctx() ctx: ContinuationContext): Promise<LineageNode[]> {
    const nodes = await ctx.loaders.lineageTreeByOriginId.load(session.originId);
    return nodes.map(({ session: node, edge }) => ({ session: node, edge, depth: node.lineageDepth }));
  }

  @FieldResolver(() => [String], { description: 'Tools pinned for this session, carried by its continuation.' })
  async pinnedTools(@Root() session: SessionEntity, @Ctx() ctx: ContinuationContext): Promise<string[]> {
    return (await this.manifestInto(session, ctx))?.transferredState.pinnedTools ?? [];
  }

  @FieldResolver(() => [ResourceRef], { description: 'Resource versions pinned for this session, carried by its continuation.' })
  async pinnedResources(@Root() session: SessionEntity, @Ctx() ctx: ContinuationContext): Promise<ResourceRef[]> {
    const refs = (await this.manifestInto(session, ctx))?.transferredState.pinnedResources ?? [];
    return refs.map((ref) => ({ url: ref.url, version: ref.version ?? '', blockId: ref.blockId }));
  }

  private async manifestInto(session: SessionEntity, ctx: ContinuationContext): Promise<ProjectionManifestEntity | null> {
    const edge = await ctx.loaders.edgeBySuccessorId.load(session.id);
    return edge ? ctx.loaders.manifestByEdgeId.load(edge.id) : null;
  }
}
