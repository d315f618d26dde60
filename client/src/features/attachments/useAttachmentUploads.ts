import { useCallback, useEffect, useRef, useState } from 'react';
import { useSignedInKey } from '../../app/auth';
import { randomUUID } from '../../app/random-uuid';
import { type AttachmentUpload, type UploadedAttachment, uploadAttachment } from './attachments';

/** A file being attached to the draft: sending, sent, or refused. */
export type DraftAttachment =
  | { id: string; name: string; state: 'uploading'; sent: number; total: number }
  | { id: string; name: string; state: 'uploaded'; attachment: UploadedAttachment }
  | { id: string; name: string; state: 'failed'; error: string };

/**
 * The files attached to a draft, each uploaded as soon as it is chosen so that sending the
 * message only links their cids. Removing one cancels its upload.
 */
export function useAttachmentUploads() {
  const apiKey = useSignedInKey();
  const [drafts, setDrafts] = useState<DraftAttachment[]>([]);
  const uploads = useRef(new Map<string, AttachmentUpload>());

  const update = (id: string, next: DraftAttachment) => setDrafts((current) => current.map((draft) => (draft.id === id ? next : draft)));

  const add = useCallback(
    (files: Iterable<File>) => {
      if (!apiKey) return;
      for (const file of files) {
        const id = randomUUID();
        const upload = uploadAttachment(apiKey, file, (sent, total) => update(id, { id, name: file.name, state: 'uploading', sent, total }));
        uploads.current.set(id, upload);
        setDrafts((current) => [...current, { id, name: file.name, state: 'uploading', sent: 0, total: file.size }]);
        upload.done.then(
          (attachment) => update(id, { id, name: file.name, state: 'uploaded', attachment }),
          (error: unknown) => update(id, { id, name: file.name, state: 'failed', error: error instanceof Error ? error.message : String(error) }),
        );
        void upload.done.finally(() => uploads.current.delete(id)).catch(() => undefined);
      }
    },
    [apiKey],
  );

  const remove = useCallback((id: string) => {
    uploads.current.get(id)?.abort();
    setDrafts((current) => current.filter((draft) => draft.id !== id));
  }, []);

  const clear = useCallback(() => setDrafts([]), []);

  useEffect(() => {
    const pending = uploads.current;
    return () => pending.forEach((upload) => upload.abort());
  }, []);

  const cids = drafts.flatMap((draft) => (draft.state === 'uploaded' ? [draft.attachment.cid] : []));
  return { drafts, add, remove, clear, cids, uploading: drafts.some((draft) => draft.state === 'uploading') };
}
