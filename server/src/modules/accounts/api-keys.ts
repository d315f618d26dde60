import { randomBytes } from 'node:crypto';
import { ApiKeyScope, ALL_SCOPES, impliedScopes } from '../../shared/access';
import { ErrorDetail } from '../../shared/errors';
import { isId } from '../../shared/ids';
import { sha256 } from '../../shared/sha256';

const API_KEY_PREFIX = 'sck_';
/** How much of a secret is kept in the clear to recognise it: the marker and 8 random characters. */
const VISIBLE_PREFIX_CHARS = API_KEY_PREFIX.length + 8;
export const KEY_NAME_MAX_CHARS = 100;
export const KEY_SESSIONS_MAX = 100;

/** A new random API key; only its hash is ever stored. */
export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('base64url');
}

/** Keys are 256 random bits, so a fast hash is enough: no dictionary can reach them. */
export function hashApiKey(apiKey: string): string {
  return sha256(apiKey);
}

/** The secret's first characters, kept to recognise the key in a list. */
export function visiblePrefix(apiKey: string): string {
  return apiKey.slice(0, VISIBLE_PREFIX_CHARS);
}

export interface NewKeyRequest {
  name: string;
  scopes: ApiKeyScope[];
  sessionIds?: string[] | null;
  expiresAt?: Date | null;
}

/** The request's problems, each with its path under `input`; empty when it may be made. */
export function newKeyProblems(request: NewKeyRequest, now: Date): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const name = request.name.trim();
  if (name.length === 0 || name.length > KEY_NAME_MAX_CHARS) {
    problems.push({ path: ['input', 'name'], message: `A key's name has 1 to ${KEY_NAME_MAX_CHARS} characters.` });
  }
  if (request.scopes.length === 0 || request.scopes.some((scope) => !ALL_SCOPES.includes(scope))) {
    problems.push({ path: ['input', 'scopes'], message: 'Name at least one scope: READ, WRITE or ADMIN.' });
  }
  const sessionIds = request.sessionIds;
  if (sessionIds && (sessionIds.length === 0 || sessionIds.length > KEY_SESSIONS_MAX || !sessionIds.every(isId))) {
    problems.push({ path: ['input', 'sessionIds'], message: `sessionIds names 1 to ${KEY_SESSIONS_MAX} session ids, or is absent.` });
  }
  if (request.expiresAt && request.expiresAt.getTime() <= now.getTime()) {
    problems.push({ path: ['input', 'expiresAt'], message: 'expiresAt must be in the future.' });
  }
  return problems;
}

/** The scopes stored for a request: each implied scope written out, so [WRITE] is kept as [READ, WRITE]. */
export function storedScopes(scopes: readonly ApiKeyScope[]): ApiKeyScope[] {
  return impliedScopes(scopes);
}
