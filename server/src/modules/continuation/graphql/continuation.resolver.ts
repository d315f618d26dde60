import { GraphQLResolveInfo } from 'graphql';
import { Arg, Ctx, FieldResolver, Float, ID, Info, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import type { SubscribeResolverData } from 'type-graphql';
import { Actor } from '../continuations';
import { ManifestItemOrigin, itemOrigin } from '../projection/model';
import type { ContinuationEdgeEntity } from '../continuation-edge.entity';
import type { EventEntity } from '../../conversation/event.entity';
import type { ProjectionManifestEntity } from '../projection-manifest.entity';
import type { SessionEntity } from '../../conversation/session.entity';
import type { ContinuationContext } from './continuation.context';
import { subscribedSession } from '../../conversation/graphql/conversation.context';
import { toPayload } from '../../../shared/graphql/errors';
import type { PublishedContinuation } from '../continuation.topics';
import { JSONScalar } from '../../../shared/graphql/scalars';
import { Session } from '../../conversation/graphql/session.type';
import { Event } from '../../conversation/graphql/event.type';
import { ContinueSessionInput } from './continuation.input';
import {
  ContinuationEdge,
  ContinueSessionResult,
  ContinueSessionSuccess,
  Handoff,
  ManifestItem,
  ProjectedContext,
  ProjectionManifest,
  ProjectionPreview,
  ProjectionPreviewResult,
  SessionContinuedEvent,
} from './continuation.type';
import { continueSessionTool } from '../continue-session.tool';

async function subscribeToContinuations({
  args,
  context,
}: SubscribeResolverData<unknown, { sessionId?: string | null }, ContinuationContext>) {
  if (args.sessionId == null) return context.pubSub.subscribe('ACCOUNT_CONTINUED', context.viewer.accountId);
  const session = await subscribedSession(context, args.sessionId);
  return context.pubSub.subscribe('SESSION_CONTINUED', session.id);
}

async function required<T>(value: Promise<T | null>, what: string): Promise<T> {
  const found = await value;
  if (found === null) throw new Error(`${what} is missing`);
  return found;
}

@Resolver(() => ContinuationEdge)
export class ContinuationResolver {
  @Mutation(() => ContinueSessionResult, {
    description:
      'Continues a session in a fresh successor, atomically and idempotently. Expected failures are an OperationError and write nothing.',
  })
  async continueSession(@Arg('input', { description: 'The predecessor, the handoff, the sources and the state to carry.' }) input: ContinueSessionInput, @Ctx() ctx: ContinuationContext): Promise<typeof ContinueSessionResult> {
    const outcome = await ctx.services.continuations.continueSession(ctx.viewer, input, { actor: input.actor ?? Actor.AGENT });
    return toPayload(outcome, (result) => ContinueSessionSuccess.of(result));
  }

  @Query(() => ProjectionPreviewResult, { description: 'Budget estimate and selection for a continuation, without writing anything.' })
  async previewProjection(@Arg('input', { description: 'A continueSession input, exactly as it would be sent.' }) input: ContinueSessionInput, @Ctx() ctx: ContinuationContext): Promise<typeof ProjectionPreviewResult> {
    const outcome = await ctx.services.continuations.previewProjection(ctx.viewer, input);
    return toPayload(outcome, ({ sections, items, tokenBudget, tokenCost }) =>
      ProjectionPreview.of({ context: { sections, tokenCount: tokenCost }, items, tokenBudget, tokenCost }),
    );
  }

  @Query(() => JSONScalar, {
    description: 'The continue_session tool definition (JSON Schema, function-calling form) for agent runtimes.',
  })
  continueSessionTool(@Info() info: GraphQLResolveInfo): unknown {
    return continueSessionTool(info.schema);
  }

  @Query(() => ContinuationEdge, { nullable: true, description: "One of the viewer's continuation edges; null when there is none with this id." })
  continuationEdge(@Arg('id', () => ID, { description: "The edge's id; an id that is no UUID finds nothing." }) id: string, @Ctx() ctx: ContinuationContext): Promise<ContinuationEdgeEntity | null> {
    return ctx.loaders.edgeById.load(id);
  }

  @Query(() => ProjectionManifest, { nullable: true, description: "One of the viewer's projection manifests; null when there is none with this id." })
  projectionManifest(@Arg('id', () => ID, { description: "The manifest's id; an id that is no UUID finds nothing." }) id: string, @Ctx() ctx: ContinuationContext): Promise<ProjectionManifestEntity | null> {
    return ctx.loaders.manifestById.load(id);
  }

  @Subscription(() => SessionContinuedEvent, {
    description:
      'Fires once per continuation of the given session (its predecessor role), after the continuation committed; without sessionId, for every continuation in the caller\'s account.',
    subscribe: subscribeToContinuations,
  })
  async sessionContinued(
    @Root() continuation: PublishedContinuation,
    @Ctx() ctx: ContinuationContext,
    @Arg('sessionId', () => ID, { nullable: true, description: "The predecessor to watch (NOT_FOUND for another account's); absent: the whole account." }) _sessionId?: string,
  ): Promise<SessionContinuedEvent> {
    ctx.refreshLoaders();
    const [edge, predecessor, successor, run] = await Promise.all([
      required(ctx.loaders.edgeById.load(continuation.edgeId), 'edge'),
      required(ctx.loaders.sessionById.load(continuation.predecessorId), 'predecessor'),
      required(ctx.loaders.sessionById.load(continuation.successorId), 'successor'),
      ctx.loaders.initialRunBySuccessorId.load(continuation.successorId),
    ]);
    return { edge, predecessor, successor, run };
  }

  @FieldResolver(() => Session, { description: 'The session that was continued.' })
  predecessor(@Root() edge: ContinuationEdgeEntity, @Ctx() ctx: ContinuationContext): Promise<SessionEntity> {
    return required(ctx.loaders.sessionById.load(edge.predecessorId), 'predecessor');
  }

  @FieldResolver(() => Session, { description: 'The fresh session the work went on in.' })
  successor(@Root() edge: ContinuationEdgeEntity, @Ctx() ctx: ContinuationContext): Promise<SessionEntity> {
    return required(ctx.loaders.sessionById.load(edge.successorId), 'successor');
  }

  @FieldResolver(() => Event, {
    description:
      'The user message that caused the continuation: an event of the predecessor, or for a branch started by writing to a continued session, the new message in the successor.',
  })
  initiatingEvent(@Root() edge: ContinuationEdgeEntity, @Ctx() ctx: ContinuationContext): Promise<EventEntity> {
    return required(ctx.loaders.eventById.load(edge.initiatingEventId), 'initiating event');
  }

  @FieldResolver(() => Handoff, { description: 'The orientation the agent wrote for the successor.' })
  async handoff(@Root() edge: ContinuationEdgeEntity, @Ctx() ctx: ContinuationContext): Promise<Handoff> {
    return (await required(ctx.loaders.manifestByEdgeId.load(edge.id), 'manifest')).handoff;
  }

  @FieldResolver(() => ProjectionManifest, { description: 'The exact sources and state the successor started from.' })
  manifest(@Root() edge: ContinuationEdgeEntity, @Ctx() ctx: ContinuationContext): Promise<ProjectionManifestEntity> {
    return required(ctx.loaders.manifestByEdgeId.load(edge.id), 'manifest');
  }
}

@Resolver(() => ProjectionManifest)
export class ProjectionManifestResolver {
  @FieldResolver(() => [ManifestItem])
  items(@Root() manifest: ProjectionManifestEntity): ManifestItem[] {
    return manifest.items.map((item, index) => Object.assign(new ManifestItem(), item, { manifestId: manifest.id, index }));
  }

  @FieldResolver(() => ProjectedContext, { description: "The successor's initial context as the compiler built it." })
  context(@Root() manifest: ProjectionManifestEntity): ProjectedContext {
    return { sections: manifest.context, tokenCount: manifest.tokenCost };
  }
}

@Resolver(() => ManifestItem)
export class ManifestItemResolver {
  @FieldResolver(() => Int, {
    description:
      'How often the successor line recalled this item since (reads passing recallFor with exact bounds): a projection-quality signal for OMITTED items.',
  })
  async recallCount(@Root() item: ManifestItem, @Ctx() ctx: ContinuationContext): Promise<number> {
    if (item.manifestId === undefined || item.index === undefined) return 0;
    return (await ctx.loaders.recallCountsByManifestId.load(item.manifestId)).get(item.index) ?? 0;
  }

  @FieldResolver(() => ManifestItemOrigin, { description: "Who selected this item: the caller's sources, the runtime, or assisted selection." })
  origin(@Root() item: ManifestItem): ManifestItemOrigin {
    return itemOrigin(item);
  }

  @FieldResolver(() => Float, { nullable: true, description: "Assisted selection's relevance score for a RECOMMENDED item; null otherwise." })
  score(@Root() item: ManifestItem): number | null {
    return item.score ?? null;
  }
}
