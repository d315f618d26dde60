import { Arg, Ctx, ID, Int, Query, Resolver } from 'type-graphql';
import { SearchScope, encodeSearchCursor } from './search';
import type { SearchContext } from './search.context';
import { valueOrThrow } from '../../shared/graphql/errors';
import { EventSearchConnection } from './search.type';

@Resolver()
export class SearchResolver {
  @Query(() => EventSearchConnection, {
    description:
      'Ranked full-text search over event text. With sessionId the scope defaults to LINEAGE; without it, ACCOUNT. Plain words are alternatives, each weighing as much as it is rare where the search looks (BM25); "quoted phrases" and -exclusions are strict. INVALID_INPUT for an empty or over-long query (500 characters), NOT_FOUND for another account\'s session.',
  })
  async searchEvents(
    @Arg('query', { description: 'What to find, as people type it: words, "phrases", -excluded.' }) query: string,
    @Ctx() ctx: SearchContext,
    @Arg('sessionId', () => ID, { nullable: true, description: 'The session the search starts from (required for SESSION and LINEAGE).' })
    sessionId?: string,
    @Arg('scope', () => SearchScope, { nullable: true, description: 'Where to look; see the field description for the default.' })
    scope?: SearchScope,
    @Arg('first', () => Int, { nullable: true, description: 'Page size, 0 to 100 (default 50).' }) first?: number,
    @Arg('after', () => String, { nullable: true, description: 'Cursor of the last hit of the previous page.' }) after?: string,
  ): Promise<EventSearchConnection> {
    const result = valueOrThrow(await ctx.services.search.searchEvents(ctx.viewer, { query, sessionId, scope, first, after }));
    const cursors = result.hits.map((hit) => encodeSearchCursor({ scoring: result.scoring, score: hit.score, eventId: hit.event.id }));
    return {
      edges: result.hits.map((node, index) => ({ node, cursor: cursors[index] })),
      pageInfo: {
        hasNextPage: result.hasNextPage,
        hasPreviousPage: after != null,
        startCursor: cursors[0] ?? null,
        endCursor: cursors[cursors.length - 1] ?? null,
      },
      // A getter: the count is made only when the field is selected.
      get totalCount() {
        return result.totalCount();
      },
    };
  }
}
