import { useEffect, useRef, type ReactNode } from 'react';

interface ModalDialogProps {
  /** The dialog's accessible name, or the id of its heading. */
  label?: string;
  labelledBy?: string;
  className?: string;
  /** Esc, a close button or the backdrop: the dialog is done. */
  onClose(): void;
  children: ReactNode;
}

/**
 * A modal `<dialog>` shown as it mounts: the browser traps the focus, Esc closes it, and the
 * focus returns to where it was. A click on the backdrop closes it too. Full screen on a narrow
 * screen (the stylesheet's `.modal`).
 */
export function ModalDialog({ label, labelledBy, className, onClose, children }: ModalDialogProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  });

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    const returnTo = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    const closed = () => onCloseRef.current();
    dialog.addEventListener('close', closed);
    return () => {
      dialog.removeEventListener('close', closed);
      if (dialog.open) dialog.close();
      returnTo?.focus?.();
    };
  }, []);

  return (
    <dialog
      ref={dialogRef}
      className={className ? `modal ${className}` : 'modal'}
      aria-label={label}
      aria-labelledby={labelledBy}
      onClick={(event) => {
        if (event.target === dialogRef.current) dialogRef.current.close();
      }}
    >
      {children}
    </dialog>
  );
}
