import { useCallback, useState } from 'react';

/**
 * A small piece of UI state kept in this browser across visits (localStorage), read once when
 * the component mounts. `parse` turns what is stored back into a value, or null for anything else.
 */
export function useRemembered<T>(key: string, initial: T, parse: (stored: unknown) => T | null): [T, (value: T) => void] {
  const [value, setValue] = useState<T>(() => {
    try {
      const stored = window.localStorage.getItem(key);
      return (stored === null ? null : parse(JSON.parse(stored))) ?? initial;
    } catch {
      return initial;
    }
  });
  const remember = useCallback(
    (next: T) => {
      setValue(next);
      try {
        window.localStorage.setItem(key, JSON.stringify(next));
      } catch {
        // Storage full or refused: the choice holds for this visit.
      }
    },
    [key],
  );
  return [value, remember];
}
