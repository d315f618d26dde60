import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Icon } from './icons';

interface MenuButtonProps {
  /** The button's and the panel's accessible name. */
  label: string;
  /** The panel's content; `close` puts it away (an action chosen). */
  children(close: () => void): ReactNode;
}

/**
 * A button that shows a panel of actions and settings below it (a disclosure, so the panel can
 * hold a checkbox as well as buttons). Esc, a click elsewhere or the focus leaving puts it away;
 * the focus then returns to the button.
 */
export function MenuButton({ label, children }: MenuButtonProps) {
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const panelId = useId();

  const close = (returnFocus = true) => {
    setOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  };

  useEffect(() => {
    if (!open) return;
    panelRef.current?.querySelector<HTMLElement>('button, [href], input, select, textarea, summary')?.focus();
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!panelRef.current?.contains(target) && !buttonRef.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  return (
    <div className="menu-button">
      <button
        ref={buttonRef}
        type="button"
        className="icon-button"
        aria-label={label}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen(!open)}
      >
        <Icon name="more" />
      </button>
      {open && (
        <div
          id={panelId}
          ref={panelRef}
          role="group"
          aria-label={label}
          className="menu-panel"
          onKeyDown={(event) => {
            if (event.key !== 'Escape') return;
            // Esc here closes the menu; it must not also stop a running answer.
            event.preventDefault();
            close();
          }}
          onBlur={(event) => {
            const next = event.relatedTarget as Node | null;
            if (next && !panelRef.current?.contains(next) && !buttonRef.current?.contains(next)) setOpen(false);
          }}
        >
          {children(() => close(false))}
        </div>
      )}
    </div>
  );
}
