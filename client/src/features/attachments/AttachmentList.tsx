import { useEffect, useState } from 'react';
import { useSignedInKey } from '../../app/auth';
import type { AttachmentFieldsFragment } from '../../gql/graphql';
import { fetchAttachment, formatByteSize, isImage } from './attachments';
import './attachments.css';

/** The bytes of an attachment as an object URL, fetched with the key; null until they arrive. */
function useAttachmentUrl(url: string, wanted: boolean): { objectUrl: string | null; error: string | null } {
  const apiKey = useSignedInKey();
  const [state, setState] = useState<{ objectUrl: string | null; error: string | null }>({ objectUrl: null, error: null });
  useEffect(() => {
    if (!wanted || !apiKey) return;
    const controller = new AbortController();
    let objectUrl: string | null = null;
    fetchAttachment(apiKey, url, controller.signal).then(
      (blob) => {
        objectUrl = URL.createObjectURL(blob);
        setState({ objectUrl, error: null });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ objectUrl: null, error: error instanceof Error ? error.message : String(error) });
      },
    );
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [apiKey, url, wanted]);
  return state;
}

/** An image as a thumbnail that opens the full-size image in a new tab. */
function ImageAttachment({ attachment }: { attachment: AttachmentFieldsFragment }) {
  const { objectUrl, error } = useAttachmentUrl(attachment.url, true);
  const label = `${attachment.name}, ${formatByteSize(attachment.byteSize)}`;
  if (error) return <span className="attachment-file attachment-error">{attachment.name}: {error}</span>;
  if (!objectUrl) return <span className="attachment-thumbnail attachment-loading" aria-label={`Loading ${label}`} />;
  return (
    <a className="attachment-thumbnail" href={objectUrl} target="_blank" rel="noreferrer" aria-label={`Open ${label} full size`} title={`Open ${label} full size`}>
      <img src={objectUrl} alt={attachment.name} />
    </a>
  );
}

/** Any other file: a download link, its bytes fetched only when asked for. */
function FileAttachment({ attachment }: { attachment: AttachmentFieldsFragment }) {
  const apiKey = useSignedInKey();
  const [error, setError] = useState<string | null>(null);
  async function download() {
    if (!apiKey) return;
    setError(null);
    try {
      const objectUrl = URL.createObjectURL(await fetchAttachment(apiKey, attachment.url));
      const link = Object.assign(document.createElement('a'), { href: objectUrl, download: attachment.name });
      link.click();
      // The browser has taken the download by the next task.
      setTimeout(() => URL.revokeObjectURL(objectUrl), 0);
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    }
  }
  return (
    <span className="attachment-file">
      <button type="button" className="button button-quiet" onClick={() => void download()}>
        {attachment.name}
      </button>{' '}
      <span className="hint">
        {attachment.mediaType} · {formatByteSize(attachment.byteSize)}
      </span>
      {error && <span className="attachment-error"> {error}</span>}
    </span>
  );
}

/** The files a message links: images as thumbnails, others as downloads. */
export function AttachmentList({ attachments }: { attachments: AttachmentFieldsFragment[] }) {
  if (attachments.length === 0) return null;
  return (
    <ul className="attachment-list" aria-label="Attachments">
      {attachments.map((attachment) => (
        <li key={attachment.cid}>
          {isImage(attachment.mediaType) ? <ImageAttachment attachment={attachment} /> : <FileAttachment attachment={attachment} />}
        </li>
      ))}
    </ul>
  );
}
