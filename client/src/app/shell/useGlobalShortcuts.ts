import { useEffect, useRef } from 'react';
import { hasCommandKey, isModalOpen, isTyping } from '../keyboard';

export interface GlobalShortcuts {
  openPalette(): void;
  openShortcuts(): void;
  newConversation(): void;
  toggleSidebar(): void;
  /** Moves the focus to the message field, when the page has one. */
  focusComposer(): void;
}

/**
 * The app-wide keys: Ctrl/⌘+K the palette (even while typing), ? the list of shortcuts,
 * Ctrl/⌘+Shift+O a new conversation, Ctrl/⌘+Shift+S the sidebar, / the message field. Esc is
 * the page's (it stops a running answer there). Single keys never fire inside a field, and none
 * but Ctrl/⌘+K while a dialog is open.
 */
export function useGlobalShortcuts(actions: GlobalShortcuts): void {
  const latest = useRef(actions);
  useEffect(() => {
    latest.current = actions;
  });

  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.defaultPrevented || event.isComposing) return;
      const run = (action: () => void) => {
        event.preventDefault();
        action();
      };
      const key = event.key.toLowerCase();
      if (hasCommandKey(event) && !event.shiftKey && !event.altKey && key === 'k') return run(latest.current.openPalette);
      if (isModalOpen()) return;
      if (hasCommandKey(event) && event.shiftKey && key === 'o') return run(latest.current.newConversation);
      if (hasCommandKey(event) && event.shiftKey && key === 's') return run(latest.current.toggleSidebar);
      if (event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return;
      if (event.key === '?') return run(latest.current.openShortcuts);
      if (event.key === '/') return run(latest.current.focusComposer);
    }
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
}
