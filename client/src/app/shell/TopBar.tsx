import type { ReactNode } from 'react';
import { SidebarToggle } from './SidebarToggle';

/** The top of a page: the way to the conversations when the sidebar is hidden, then the page's own heading. */
export function TopBar({ children }: { children: ReactNode }) {
  return (
    <header className="top-bar">
      <SidebarToggle />
      <div className="top-bar-content">{children}</div>
    </header>
  );
}
