/** Per tab (sessionStorage): another tab following a continuation says nothing about this one. */
const STORAGE_KEY = 'session-continuation.followedContinuations';

/** Enough to cover any history a person walks back through; older ids drop off. */
const REMEMBERED = 200;

function followedEdgeIds(storage: Storage): string[] {
  try {
    const stored: unknown = JSON.parse(storage.getItem(STORAGE_KEY) ?? '[]');
    return Array.isArray(stored) ? stored.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

export function hasFollowed(storage: Storage, edgeId: string): boolean {
  return followedEdgeIds(storage).includes(edgeId);
}

export function rememberFollowed(storage: Storage, edgeId: string): void {
  const edgeIds = [...followedEdgeIds(storage).filter((id) => id !== edgeId), edgeId].slice(-REMEMBERED);
  storage.setItem(STORAGE_KEY, JSON.stringify(edgeIds));
}
