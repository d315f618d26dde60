import { Arg, Ctx, ID, Int, Query, Resolver } from 'type-graphql';
import type { ContinuationContext } from './continuation.context';
import { valueOrThrow } from '../../../shared/graphql/errors';
import { SourceRecommendation } from './recommendation.type';

@Resolver()
export class RecommendationResolver {
  @Query(() => [SourceRecommendation], {
    description:
      "Sources worth carrying from this session's lineage for a purpose, best first: event ranges around text matching the purpose's words, ranges read back after earlier projections left them out, and the account's resource blocks and memory entries that match. INVALID_INPUT for an empty purpose or one over 2,000 characters, NOT_FOUND for another account's session.",
  })
  async recommendSources(
    @Arg('sessionId', () => ID, { description: "The session whose lineage to draw from (NOT_FOUND for another account's)." }) sessionId: string,
    @Arg('purpose', { description: 'What the sources are for, in a sentence or two (a handoff purpose and current request).' }) purpose: string,
    @Ctx() ctx: ContinuationContext,
    @Arg('first', () => Int, { nullable: true, description: 'How many, 0 to 50 (default 10).' }) first?: number,
  ): Promise<SourceRecommendation[]> {
    const recommendations = valueOrThrow(await ctx.services.recommendations.recommendSources(ctx.viewer, sessionId, purpose, first));
    return recommendations.map(SourceRecommendation.of);
  }
}
