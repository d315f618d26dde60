import type { Outcome } from './errors';
import type { Viewer } from './viewer';

/** Exact material a successor reads back: a read of it with `recallFor` may recall what its projection left out. */
export type RecalledSource =
  | { kind: 'EVENTS'; sessionId: string; fromEventId: string; toEventId: string }
  | { kind: 'RESOURCE'; url: string; version: string }
  | { kind: 'MEMORY'; path: string; cid: string };

/** Counts reads of left-out sources as recalls of the manifest that left them out; the continuation module keeps the counts. */
export interface RecallRecorder {
  /** How many of the manifest's items the read recalled; NOT_FOUND for a manifest that is not the viewer's. */
  recordRecall(viewer: Viewer, manifestId: string, read: RecalledSource): Promise<Outcome<number>>;
}
