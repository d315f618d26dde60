import { Icon } from '../icons';
import { useShell } from './shell-context';

/** Brings the sidebar back when it is hidden, or opens the drawer on a narrow screen. */
export function SidebarToggle() {
  const shell = useShell();
  if (!shell || shell.sidebarShown) return null;
  return (
    <button
      type="button"
      className="icon-button sidebar-toggle"
      aria-label="Show conversations"
      aria-controls="sidebar"
      aria-expanded={false}
      onClick={shell.toggleSidebar}
    >
      <Icon name={shell.narrow ? 'menu' : 'sidebar'} />
    </button>
  );
}
