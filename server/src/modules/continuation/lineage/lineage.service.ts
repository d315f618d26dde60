import { DataSource, In } from 'typeorm';
import { Outcome, succeed, notFound } from '../../../shared/errors';
import { RecalledSource } from '../../../shared/recall';
import { itemBoundIds, overlappedOmissions, recalledItems } from '../projection/recall';
import { EventEntity } from '../../conversation/event.entity';
import { ContinuationEdgeEntity } from '../continuation-edge.entity';
import { ProjectionManifestEntity } from '../projection-manifest.entity';
import { SessionEntity } from '../../conversation/session.entity';
import { currentContinuations, LineageTreeNode, lineagePath, lineageTrees } from './lineage.repository';
import { alignMany, alignOne } from '../../../shared/batch';
import { Viewer } from '../../../shared/viewer';
import { HistoryReads, primaryReads } from '../../../platform/db/history-reads';
import { accountRows } from '../../../platform/db/rows';

/** Reads of continuation lineage, all scoped to one account. Batch methods serve DataLoaders. */
export class LineageService {
  constructor(
    private readonly dataSource: DataSource,
    /** Where lineages are read: a replica once it has the account's writes. */
    private readonly history: HistoryReads = primaryReads(dataSource),
  ) {}

  private get manager() {
    return this.dataSource.manager;
  }

  async edgesByIds(accountId: string, ids: readonly string[]): Promise<(ContinuationEdgeEntity | null)[]> {
    return alignOne(ids, await accountRows(this.manager, ContinuationEdgeEntity, 'id', accountId, ids), (edge) => edge.id);
  }

  /** The edge into each session (a session has at most one predecessor). */
  async edgesBySuccessorIds(accountId: string, ids: readonly string[]): Promise<(ContinuationEdgeEntity | null)[]> {
    return alignOne(ids, await accountRows(this.manager, ContinuationEdgeEntity, 'successor_id', accountId, ids), (edge) => edge.successorId);
  }

  /** The edges out of each session, newest first. */
  async edgesByPredecessorIds(accountId: string, ids: readonly string[]): Promise<ContinuationEdgeEntity[][]> {
    const rows = await accountRows(this.manager, ContinuationEdgeEntity, 'predecessor_id', accountId, ids, 'ORDER BY created_at DESC, id DESC');
    return alignMany(ids, rows, (edge) => edge.predecessorId);
  }

  async manifestsByIds(accountId: string, ids: readonly string[]): Promise<(ProjectionManifestEntity | null)[]> {
    return alignOne(ids, await accountRows(this.manager, ProjectionManifestEntity, 'id', accountId, ids), (manifest) => manifest.id);
  }

  async manifestsByEdgeIds(accountId: string, ids: readonly string[]): Promise<(ProjectionManifestEntity | null)[]> {
    return alignOne(ids, await accountRows(this.manager, ProjectionManifestEntity, 'edge_id', accountId, ids), (manifest) => manifest.edgeId);
  }

  /**
   * Counts an exact read as a recall of the items `manifestId` left out with exactly that reference.
   * Fails with NOT_FOUND when the manifest is not the viewer's.
   */
  async recordRecall(viewer: Viewer, manifestId: string, read: RecalledSource): Promise<Outcome<number>> {
    const [manifest] = await this.manifestsByIds(viewer.accountId, [manifestId]);
    if (!manifest) {
      return notFound('manifest', ['recallFor']);
    }
    const indexes = recalledItems(manifest.items, read);
    await this.countRecalls(manifest.id, indexes);
    return succeed(indexes.length);
  }

  /**
   * Counts a read of `sessionId` (seqs `fromSeq` to `toSeq`) from `readerId` as a recall of every
   * source its projection left out that the read overlaps. Nothing is counted for a reader that is
   * no successor. Returns how many items were counted.
   */
  async recordOverlappingRecall(viewer: Viewer, readerId: string, read: { sessionId: string; fromSeq: number; toSeq: number }): Promise<number> {
    const [manifest] = await this.manager.findBy(ProjectionManifestEntity, { accountId: viewer.accountId, successorId: readerId });
    if (!manifest) return 0;
    const boundIds = [...new Set(manifest.items.flatMap(itemBoundIds))];
    const bounds = boundIds.length ? await this.manager.findBy(EventEntity, { accountId: viewer.accountId, id: In(boundIds) }) : [];
    const seqById = new Map(bounds.map((event) => [event.id, event.seq]));
    const indexes = overlappedOmissions(manifest.items, read, (item) => {
      const [first, last = first] = itemBoundIds(item).map((id) => seqById.get(id));
      return first === undefined || last === undefined ? null : { fromSeq: first, toSeq: last };
    });
    await this.countRecalls(manifest.id, indexes);
    return indexes.length;
  }

  private async countRecalls(manifestId: string, indexes: number[]): Promise<void> {
    if (indexes.length === 0) return;
    await this.manager.query(
      `INSERT INTO manifest_item_recalls (manifest_id, item_index, recall_count)
       SELECT $1, item_index, 1 FROM unnest($2::int[]) AS item_index
       ON CONFLICT (manifest_id, item_index) DO UPDATE SET recall_count = manifest_item_recalls.recall_count + 1`,
      [manifestId, indexes],
    );
  }

  /** Recall counts by item index, for each manifest. */
  async recallCounts(manifestIds: readonly string[]): Promise<Map<number, number>[]> {
    const rows: { manifest_id: string; item_index: number; recall_count: number }[] = await this.manager.query(
      'SELECT manifest_id, item_index, recall_count FROM manifest_item_recalls WHERE manifest_id = ANY($1::uuid[])',
      [[...manifestIds]],
    );
    return alignMany(manifestIds, rows, (row) => row.manifest_id).map(
      (counts) => new Map(counts.map((row) => [row.item_index, row.recall_count])),
    );
  }

  /** Origin first, `session` last: one recursive query whatever the depth. */
  lineage(viewer: Viewer, session: SessionEntity): Promise<SessionEntity[]> {
    return this.history.read(viewer.accountId, async (manager, onReplica) => {
      const path = await lineagePath(manager, viewer.accountId, session.id);
      // A replica that lacks the session (another client's new continuation) answers no path to it.
      return onReplica && path.at(-1)?.id !== session.id ? lineagePath(this.manager, viewer.accountId, session.id) : path;
    });
  }

  /**
   * The end of the newest continuation chain from each session, null where the session is not the
   * account's: a DataLoader batch function. Always from the primary: a client follows the head to
   * where the conversation goes on.
   */
  currentContinuations(accountId: string, ids: readonly string[]): Promise<(SessionEntity | null)[]> {
    return currentContinuations(this.manager, accountId, ids);
  }

  /** Every session continued from each origin, shallowest first: a DataLoader batch function. */
  lineageTrees(accountId: string, originIds: readonly string[]): Promise<LineageTreeNode[][]> {
    return this.history.read(accountId, (manager) => lineageTrees(manager, accountId, originIds));
  }
}
