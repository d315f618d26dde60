/** True when a key press goes into a field: a single-key shortcut must leave it alone. */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag !== 'INPUT') return false;
  const type = (target as HTMLInputElement).type;
  return !['checkbox', 'radio', 'button', 'submit', 'reset', 'range'].includes(type);
}

/** A modal dialog is on top: page shortcuts wait until it closes. */
export function isModalOpen(): boolean {
  return document.querySelector('dialog[open]') !== null || document.querySelector('[data-drawer-open]') !== null;
}

/** Ctrl on most systems, ⌘ on a Mac: what "Ctrl/Cmd" shortcuts press. */
export function hasCommandKey(event: KeyboardEvent): boolean {
  return event.ctrlKey || event.metaKey;
}

export const IS_MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

/** "Ctrl+K" or "⌘K", as this system writes it. */
export function commandShortcut(key: string, { shift = false }: { shift?: boolean } = {}): string {
  return IS_MAC ? `${shift ? '⇧' : ''}⌘${key}` : `Ctrl+${shift ? 'Shift+' : ''}${key}`;
}
