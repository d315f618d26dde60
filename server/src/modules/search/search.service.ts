import { DataSource } from 'typeorm';
import { Outcome, succeed, notFound } from '../../shared/errors';
import { isId } from '../../shared/ids';
import { SearchArgs, SearchScope, validateSearch } from './search';
import { SessionEntity } from '../conversation/session.entity';
import { EventSearchPage, SearchArea, countHits, searchEvents } from './search.repository';
import { Viewer } from '../../shared/viewer';
import { HistoryReads, primaryReads } from '../../platform/db/history-reads';

/** A page of hits; its `scoring` (the moment and the statistics its scores were measured with) goes into its cursors. */
export interface SearchResult extends EventSearchPage {
  /** Counts every match in the area, exactly; its cost follows the matches, so it runs only when called. */
  totalCount(): Promise<number>;
}

export class SearchService {
  constructor(
    private readonly dataSource: DataSource,
    /** Where searches run: a replica once it has the account's writes. */
    private readonly history: HistoryReads = primaryReads(dataSource),
  ) {}

  /**
   * Ranked full-text search over the viewer's events. Fails with INVALID_INPUT for a bad query,
   * page size, scope or cursor, and NOT_FOUND when the session is not the viewer's.
   */
  async searchEvents(viewer: Viewer, args: SearchArgs): Promise<Outcome<SearchResult>> {
    const valid = validateSearch(args);
    if (!valid.ok) return valid;
    const { scope, sessionId, parsed, first, after, excludeFrom } = valid.value;
    let area: SearchArea = { scope: SearchScope.ACCOUNT };
    if (scope !== SearchScope.ACCOUNT || sessionId !== null) {
      const session = sessionId && isId(sessionId) ? await this.dataSource.manager.findOneBy(SessionEntity, { id: sessionId, accountId: viewer.accountId }) : null;
      if (!session) return notFound('session', ['sessionId']);
      if (scope === SearchScope.SESSION) area = { scope, sessionId: session.id };
      if (scope === SearchScope.LINEAGE) area = { scope, originId: session.originId };
    }
    const scoredAt = after?.scoring.scoredAt ?? new Date();
    const { accountId } = viewer;
    const page = await this.history.read(accountId, (manager) => searchEvents(manager, { accountId, area, query: parsed, scoredAt, after, first, excludeFrom }));
    return succeed({ ...page, totalCount: () => this.history.read(accountId, (manager) => countHits(manager, { accountId, area, query: parsed, excludeFrom })) });
  }
}
