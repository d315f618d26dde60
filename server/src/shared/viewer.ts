import type { ApiKeyScope, SessionReach } from './access';

/** The authenticated caller: every read and write is scoped to its account. */
export interface Viewer {
  accountId: string;
  name: string;
  isAdmin: boolean;
  /** The key in use; null for the runtime acting for the account. */
  keyId: string | null;
  /** When the key stops working by itself; null for never. */
  keyExpiresAt: Date | null;
  /** What the key may do. */
  scopes: readonly ApiKeyScope[];
  /** For a session-limited key, the sessions it reaches; null reaches the whole account. */
  reach: SessionReach | null;
}
