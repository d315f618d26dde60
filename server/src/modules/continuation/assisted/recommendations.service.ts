import { DataSource, EntityManager } from 'typeorm';
import { SourceKind } from '../continuations';
import { ErrorCode, Outcome, fail, succeed, notFound } from '../../../shared/errors';
import { isId } from '../../../shared/ids';
import { RecommendedContent } from '../projection/model';
import { DEFAULT_RECOMMENDATIONS, MAX_RECOMMENDATIONS, RankedRange, purposeQuery, rankSources, validatePurpose } from './recommendations';
import { SessionEntity } from '../../conversation/session.entity';
import { purposeContent, purposeHits, recalledRanges } from './recommendation.repository';
import { resolveContentSource } from '../content-source.repository';
import { Viewer } from '../../../shared/viewer';
import { readTogether } from '../../../platform/db/read-together';

/** A recommendation as the compiler and the API take it: a ranked range, or content resolved exactly. */
export type Recommendation = ({ type: 'EVENTS' } & RankedRange) | RecommendedContent;

/**
 * Ranked sources of the lineage starting at `originId` (and of the account's resources and
 * memory) for `purpose`, best first, from the best `candidateHits` matching events (a default
 * that suits a list of recommendations otherwise); read through `manager`. Content is pinned to what it
 * resolves to now, as a cited source would be; content that no longer resolves is left out.
 */
export async function rankedSources(
  manager: EntityManager,
  accountId: string,
  originId: string,
  purpose: string,
  limit: number,
  candidateHits?: number,
): Promise<Recommendation[]> {
  const { query, words } = purposeQuery(purpose);
  const [hits, recalled, content] = await readTogether(manager, [
    () => purposeHits(manager, accountId, originId, query, words, candidateHits),
    () => recalledRanges(manager, accountId, originId),
    () => purposeContent(manager, accountId, query, words),
  ]);
  const resolved = await readTogether(
    manager,
    rankSources(hits, recalled, content, limit).map((ranked) => async (): Promise<Recommendation | null> => {
      if (ranked.type === 'EVENTS') return ranked;
      const { hit } = ranked;
      const source = await resolveContentSource(
        manager,
        accountId,
        hit.kind === 'MEMORY'
          ? { kind: SourceKind.MEMORY, relevance: ranked.reason, path: hit.path }
          : { kind: SourceKind.RESOURCE, relevance: ranked.reason, url: hit.url, version: hit.version, blockId: hit.blockId },
      );
      return source?.type === 'CONTENT' ? { type: 'CONTENT', source, score: ranked.score, reason: ranked.reason } : null;
    }),
  );
  return resolved.filter((recommendation): recommendation is Recommendation => recommendation !== null);
}

export class RecommendationService {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Sources of the session's lineage worth carrying for `purpose`, best first. Fails with
   * INVALID_INPUT for an empty or over-long purpose or a bad `first`, NOT_FOUND for a session
   * that is not the viewer's.
   */
  async recommendSources(viewer: Viewer, sessionId: string, purpose: string, first?: number | null): Promise<Outcome<Recommendation[]>> {
    const valid = validatePurpose(purpose, ['purpose']);
    if (!valid.ok) return valid;
    const limit = first ?? DEFAULT_RECOMMENDATIONS;
    if (!Number.isInteger(limit) || limit < 0 || limit > MAX_RECOMMENDATIONS) {
      const message = `first must be between 0 and ${MAX_RECOMMENDATIONS}.`;
      return fail(ErrorCode.INVALID_INPUT, message, [{ path: ['first'], message }]);
    }
    const session = isId(sessionId) ? await this.dataSource.manager.findOneBy(SessionEntity, { id: sessionId, accountId: viewer.accountId }) : null;
    if (!session) return notFound('session', ['sessionId']);
    return succeed(await rankedSources(this.dataSource.manager, viewer.accountId, session.originId, valid.value, limit));
  }
}
