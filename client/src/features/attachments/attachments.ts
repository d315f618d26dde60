import { graphql } from '../../gql';

export const AttachmentFieldsFragmentDocument = graphql(`
  fragment AttachmentFields on Attachment {
    cid
    name
    mediaType
    byteSize
    url
  }
`);

/** What POST /attachments answers with. */
export interface UploadedAttachment {
  cid: string;
  name: string;
  mediaType: string;
  byteSize: number;
  url: string;
}

export interface AttachmentUpload {
  done: Promise<UploadedAttachment>;
  abort(): void;
}

/** Sizes as people read them: 820 B, 14 KB, 3.2 MB. */
export function formatByteSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export function isImage(mediaType: string): boolean {
  return /^image\/(png|jpeg|gif|webp|avif|bmp)$/.test(mediaType.split(';', 1)[0]);
}

/** The server's own words when it refuses an upload (too large, no media type), else its status. */
function refusal(request: XMLHttpRequest): string {
  try {
    const body = JSON.parse(request.responseText) as { errors?: { message?: string }[] };
    if (body.errors?.[0]?.message) return body.errors[0].message;
  } catch {
    // Not JSON: a proxy's page, say.
  }
  return `The server answered ${request.status}.`;
}

/**
 * Sends a file's bytes to POST /attachments with the Bearer key. XMLHttpRequest rather than fetch:
 * it reports upload progress, which a large file needs. A file the browser knows no type for goes
 * as application/octet-stream.
 */
export function uploadAttachment(apiKey: string, file: File, onProgress: (sent: number, total: number) => void): AttachmentUpload {
  const request = new XMLHttpRequest();
  const done = new Promise<UploadedAttachment>((resolve, reject) => {
    request.open('POST', `/attachments?name=${encodeURIComponent(file.name)}`);
    request.setRequestHeader('Authorization', `Bearer ${apiKey}`);
    request.setRequestHeader('Content-Type', file.type || 'application/octet-stream');
    request.upload.onprogress = (event) => onProgress(event.loaded, event.lengthComputable ? event.total : file.size);
    request.onload = () => {
      if (request.status === 200 || request.status === 201) resolve(JSON.parse(request.responseText) as UploadedAttachment);
      else reject(new Error(refusal(request)));
    };
    request.onerror = () => reject(new Error('The upload did not reach the server.'));
    request.onabort = () => reject(new Error('The upload was cancelled.'));
    request.send(file);
  });
  return { done, abort: () => request.abort() };
}

/** An attachment's bytes, fetched with the key (a plain link cannot send it). */
export async function fetchAttachment(apiKey: string, url: string, signal?: AbortSignal): Promise<Blob> {
  const response = await fetch(url, { headers: { Authorization: `Bearer ${apiKey}` }, signal });
  if (!response.ok) throw new Error(`The attachment could not be read (${response.status}).`);
  return response.blob();
}
