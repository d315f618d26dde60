import { createContext, useContext } from 'react';
import type { SearchScope } from '../../gql/graphql';

/** What the palette searches when it opens: by default everything. */
export interface PaletteRequest {
  scope: SearchScope;
  sessionId: string | null;
}

export interface Shell {
  /** The screen is narrow: the sidebar is a drawer over the page. */
  narrow: boolean;
  /** The sidebar is on screen (the drawer is open, on a narrow screen). */
  sidebarShown: boolean;
  toggleSidebar(): void;
  openPalette(request?: Partial<PaletteRequest>): void;
  openShortcuts(): void;
}

export const ShellContext = createContext<Shell | null>(null);

/** The app shell's controls; outside a shell (a component rendered on its own in a test), none. */
export function useShell(): Shell | null {
  return useContext(ShellContext);
}
