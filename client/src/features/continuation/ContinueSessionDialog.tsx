import { lazy, Suspense, useId, useImperativeHandle, useRef, useState, type Ref } from 'react';
import type { ContinueSessionFormProps } from './ContinueSessionForm';
import './continuation.css';

// The form, its preview and the manifest it shows load when the dialog first opens.
const ContinueSessionForm = lazy(() => import('./ContinueSessionForm'));

/** Opens the dialog from anywhere on the page: the session menu, the advice beside the composer, the palette. */
export interface ContinueSessionHandle {
  open(): void;
}

interface ContinueSessionDialogProps extends Omit<ContinueSessionFormProps, 'titleId' | 'onDone'> {
  ref?: Ref<ContinueSessionHandle>;
}

/** "Continue in new session": a person carries the conversation into a fresh successor. */
export function ContinueSessionDialog({ ref, ...form }: ContinueSessionDialogProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);
  const titleId = useId();

  // Modal before the form renders, so its first field takes focus as it mounts: the browser's own
  // pick would be the first scrolling column around the fields.
  useImperativeHandle(ref, () => ({
    open() {
      dialogRef.current?.showModal();
      setOpen(true);
    },
  }));

  return (
    <dialog ref={dialogRef} className="modal continue-dialog" aria-labelledby={titleId} onClose={() => setOpen(false)}>
      {open && (
        <Suspense
          fallback={
            <p className="hint" role="status" id={titleId}>
              Opening “Continue in new session”…
            </p>
          }
        >
          <ContinueSessionForm {...form} titleId={titleId} onDone={() => dialogRef.current?.close()} />
        </Suspense>
      )}
    </dialog>
  );
}
