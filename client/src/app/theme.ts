import { useCallback, useSyncExternalStore } from 'react';

/** `system` follows the device's light or dark setting (prefers-color-scheme). */
export type ThemePreference = 'system' | 'light' | 'dark';

export const THEME_PREFERENCES: readonly ThemePreference[] = ['system', 'light', 'dark'];

/** Also read by public/theme.js, which applies the remembered theme before the page is painted. */
export const THEME_STORAGE_KEY = 'session-continuation.theme';

function isPreference(value: unknown): value is ThemePreference {
  return typeof value === 'string' && (THEME_PREFERENCES as readonly string[]).includes(value);
}

function loadThemePreference(storage: Storage): ThemePreference {
  const stored = storage.getItem(THEME_STORAGE_KEY);
  return isPreference(stored) ? stored : 'system';
}

/** The theme on the page: `data-theme` on the root element, absent to follow the device. */
function applyThemePreference(root: HTMLElement, preference: ThemePreference): void {
  if (preference === 'system') delete root.dataset.theme;
  else root.dataset.theme = preference;
}

const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab's choice applies here too.
  const onStorage = (event: StorageEvent) => {
    if (event.key !== THEME_STORAGE_KEY) return;
    applyThemePreference(document.documentElement, loadThemePreference(window.localStorage));
    listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

const snapshot = () => loadThemePreference(window.localStorage);

/** The remembered theme and a way to change it; every view of it follows. */
export function useThemePreference(): [ThemePreference, (preference: ThemePreference) => void] {
  const preference = useSyncExternalStore(subscribe, snapshot);
  const setPreference = useCallback((next: ThemePreference) => {
    if (next === 'system') window.localStorage.removeItem(THEME_STORAGE_KEY);
    else window.localStorage.setItem(THEME_STORAGE_KEY, next);
    applyThemePreference(document.documentElement, next);
    for (const listener of listeners) listener();
  }, []);
  return [preference, setPreference];
}
