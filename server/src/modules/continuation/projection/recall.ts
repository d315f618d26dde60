import type { RecalledSource } from '../../../shared/recall';
import { SourceKind } from '../continuations';
import { ManifestItem, ManifestItemStatus } from './model';

/** Whether an exact read is exactly the source an item names (a version read holds every block of it). */
function reads(item: ManifestItem, read: RecalledSource): boolean {
  switch (read.kind) {
    case 'EVENTS':
      if (item.sessionId !== read.sessionId) return false;
      return item.kind === SourceKind.SESSION_EVENT
        ? read.fromEventId === item.eventId && read.toEventId === item.eventId
        : item.kind === SourceKind.SESSION_EVENTS && read.fromEventId === item.fromEventId && read.toEventId === item.toEventId;
    case 'RESOURCE':
      // A version read holds every block of it, so it recalls block items of that version too.
      return item.kind === SourceKind.RESOURCE && item.url === read.url && item.version === read.version;
    case 'MEMORY':
      return item.kind === SourceKind.MEMORY && item.path === read.path && item.cid === read.cid;
  }
}

/** Indexes of the manifest items an exact read recalls: OMITTED sources with exactly those bounds, as their handles name them. */
export function recalledItems(items: ManifestItem[], read: RecalledSource): number[] {
  return items.flatMap((item, index) => (item.status === ManifestItemStatus.OMITTED && reads(item, read) ? [index] : []));
}

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
