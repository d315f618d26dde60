import { DataSource, EntityManager } from 'typeorm';
import { ErrorCode, Outcome, fail, succeed } from '../domain/errors';
import { isId } from '../domain/ids';
import { DEFAULT_RECOMMENDATIONS, MAX_RECOMMENDATIONS, RankedRange, purposeQuery, rankRanges, validatePurpose } from '../domain/recommendations';
import { SessionEntity } from '../db/entities/session.entity';
import { purposeHits, recalledRanges } from '../db/repositories/recommendation.repository';
import { Viewer } from './viewer';

/** Ranked ranges of the lineage starting at `originId` for `purpose`, best first; read through `manager`. */
export async function rankedSources(
  manager: EntityManager,
  accountId: string,
  originId: string,
  purpose: string,
  limit: number,
): Promise<RankedRange[]> {
  const { query, words } = purposeQuery(purpose);
  const [hits, recalled] = await Promise.all([purposeHits(manager, accountId, originId, query, words), recalledRanges(manager, accountId, originId)]);
  return rankRanges(hits, recalled, limit);
}

export class RecommendationService {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Sources of the session's lineage worth carrying for `purpose`, best first. Fails with
   * INVALID_INPUT for an empty or over-long purpose or a bad `first`, NOT_FOUND for a session
   * that is not the viewer's.
   */
  async recommendSources(viewer: Viewer, sessionId: string, purpose: string, first?: number | null): Promise<Outcome<RankedRange[]>> {
    const valid = validatePurpose(purpose, ['purpose']);
    if (!valid.ok) return valid;
    const limit = first ?? DEFAULT_RECOMMENDATIONS;
    if (!Number.isInteger(limit) || limit < 0 || limit > MAX_RECOMMENDATIONS) {
      const message = `first must be between 0 and ${MAX_RECOMMENDATIONS}.`;
      return fail(ErrorCode.INVALID_INPUT, message, [{ path: ['first'], message }]);
    }
    const session = isId(sessionId) ? await this.dataSource.manager.findOneBy(SessionEntity, { id: sessionId, accountId: viewer.accountId }) : null;
    if (!session) return fail(ErrorCode.NOT_FOUND, 'No such session.', [{ path: ['sessionId'], message: 'No such session.' }]);
    return succeed(await rankedSources(this.dataSource.manager, viewer.accountId, session.originId, valid.value, limit));
  }
}
