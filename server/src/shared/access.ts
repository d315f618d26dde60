/** What an API key may do; each scope includes the ones before it. */
export const ApiKeyScope = { READ: 'READ', WRITE: 'WRITE', ADMIN: 'ADMIN' } as const;
export type ApiKeyScope = (typeof ApiKeyScope)[keyof typeof ApiKeyScope];

export const ALL_SCOPES: readonly ApiKeyScope[] = [ApiKeyScope.READ, ApiKeyScope.WRITE, ApiKeyScope.ADMIN];

const RANK: Record<ApiKeyScope, number> = { READ: 0, WRITE: 1, ADMIN: 2 };

/** Whether scopes held grant `needed`: WRITE includes READ, ADMIN includes both. */
export function grants(held: readonly ApiKeyScope[], needed: ApiKeyScope): boolean {
  return held.some((scope) => RANK[scope] >= RANK[needed]);
}

/** The scopes a key's scopes amount to, each one written out: [WRITE] is [READ, WRITE]. */
export function impliedScopes(held: readonly ApiKeyScope[]): ApiKeyScope[] {
  return ALL_SCOPES.filter((scope) => grants(held, scope));
}

/**
 * The sessions a session-limited key reaches: the lineages (by their origins) of the sessions it
 * was made for; forks and delegated sessions made from them reach back to those origins.
 */
export interface SessionReach {
  /** The sessions the key names. */
  sessionIds: readonly string[];
  /** Their lineages' origins: a session whose ancestry passes through one of them is in reach. */
  originIds: readonly string[];
}

/** The message of a missing scope, naming it. */
export function missingScopeMessage(needed: ApiKeyScope): string {
  return `This API key lacks the ${needed} scope.`;
}

/** Why a route refuses a key: a scope it lacks (403), or null when it may go on. */
export function scopeRefusal(held: readonly ApiKeyScope[], needed: ApiKeyScope): { message: string; code: 'FORBIDDEN'; scope: ApiKeyScope } | null {
  return grants(held, needed) ? null : { message: missingScopeMessage(needed), code: 'FORBIDDEN', scope: needed };
}

/** The refusal of account-wide work to a key limited to sessions. */
export const LIMITED_KEY_MESSAGE = 'This API key is limited to sessions: account-wide data is out of its reach.';
