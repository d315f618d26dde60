/** Where the browser keeps the API key between visits. */
export const API_KEY_STORAGE_KEY = 'session-continuation.apiKey';

/** The query parameter of the sign-in link the server prints at start-up. */
const SIGN_IN_PARAM = 'key';

/**
 * Reads the key of a sign-in link (`/?key=...`) and removes it from the address bar, so it does
 * not linger in the history, in bookmarks or in a shared screenshot.
 * Returns null when the address carries no key.
 */
export function takeApiKeyFromAddress(location: Location, history: History): string | null {
  const url = new URL(location.href);
  if (!url.searchParams.has(SIGN_IN_PARAM)) return null;
  const apiKey = url.searchParams.get(SIGN_IN_PARAM)?.trim() ?? '';
  url.searchParams.delete(SIGN_IN_PARAM);
  history.replaceState(history.state, '', `${url.pathname}${url.search}${url.hash}`);
  return apiKey === '' ? null : apiKey;
}

export function loadApiKey(storage: Storage): string | null {
  return storage.getItem(API_KEY_STORAGE_KEY);
}

export function saveApiKey(storage: Storage, apiKey: string): void {
  storage.setItem(API_KEY_STORAGE_KEY, apiKey);
}

export function forgetApiKey(storage: Storage): void {
  storage.removeItem(API_KEY_STORAGE_KEY);
}

/** A sign-in link wins over a stored key: it is how a person switches accounts. */
export function resolveApiKey(location: Location, history: History, storage: Storage): string | null {
  const fromAddress = takeApiKeyFromAddress(location, history);
  if (fromAddress === null) return loadApiKey(storage);
  saveApiKey(storage, fromAddress);
  return fromAddress;
}
