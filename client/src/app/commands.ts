import { useEffect, useSyncExternalStore } from 'react';

/** Something the command palette can run: offered while the view that registered it is open. */
export interface Command {
  id: string;
  label: string;
  /** More words the palette matches, e.g. "branch handoff". */
  keywords?: string;
  /** Its keyboard shortcut, as the help dialog writes it. */
  shortcut?: string;
  run(): void;
}

type Registration = { commands: readonly Command[] };

const registrations = new Set<Registration>();
const listeners = new Set<() => void>();
let current: readonly Command[] = [];

function changed() {
  current = [...registrations].flatMap((registration) => registration.commands);
  for (const listener of listeners) listener();
}

/** Offers `commands` in the palette while the calling component is mounted; pass a stable (memoized) list. */
export function useCommands(commands: readonly Command[]): void {
  useEffect(() => {
    const registration = { commands };
    registrations.add(registration);
    changed();
    return () => {
      registrations.delete(registration);
      changed();
    };
  }, [commands]);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Every command offered now, in the order the views registered them. */
export function useRegisteredCommands(): readonly Command[] {
  return useSyncExternalStore(subscribe, () => current);
}
