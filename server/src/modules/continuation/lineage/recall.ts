import { ManifestItem, ManifestItemStatus } from '../projection/projection';
import { SourceKind } from '../continuations';

/** An event source's bounds as positions in its session. */
export interface ItemSeqs {
  fromSeq: number;
  toSeq: number;
}

/**
 * Indexes of a manifest's OMITTED event items that a read of `sessionId`, seqs `fromSeq` to
 * `toSeq`, overlaps: reading around a search hit inside a source the projection left out recalls
 * that source, even without naming its exact bounds. `seqsOf` gives an item's bounds, or null
 * when they are unknown.
 */
export function overlappedOmissions(
  items: ManifestItem[],
  read: { sessionId: string; fromSeq: number; toSeq: number },
  seqsOf: (item: ManifestItem) => ItemSeqs | null,
): number[] {
  return items.flatMap((item, index) => {
    if (item.status !== ManifestItemStatus.OMITTED || item.sessionId !== read.sessionId) return [];
    if (item.kind !== SourceKind.SESSION_EVENTS && item.kind !== SourceKind.SESSION_EVENT) return [];
    const seqs = seqsOf(item);
    return seqs && seqs.fromSeq <= read.toSeq && read.fromSeq <= seqs.toSeq ? [index] : [];
  });
}

/** The event ids that bound an item of the kinds `overlappedOmissions` reads. */
export function itemBoundIds(item: ManifestItem): string[] {
  const ids = item.kind === SourceKind.SESSION_EVENT ? [item.eventId] : [item.fromEventId, item.toEventId];
  return ids.filter((id): id is string => id !== null);
}
