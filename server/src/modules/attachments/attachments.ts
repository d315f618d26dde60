import { ErrorDetail } from '../../shared/errors';
import { UNSTORABLE_TEXT_MESSAGE, unstorableText } from '../../shared/text';

/** The default upload limit, in bytes (ATTACHMENT_MAX_BYTES). */
export const DEFAULT_ATTACHMENT_MAX_BYTES = 25 * 1024 * 1024;
export const ATTACHMENT_NAME_MAX_CHARS = 255;
/** Attachments one message links at most. */
export const MESSAGE_ATTACHMENTS_MAX = 20;
const MEDIA_TYPE_MAX_CHARS = 255;

/** What a message, a manifest or a model is told about an attachment: never its bytes. */
export interface AttachmentReference {
  cid: string;
  name: string;
  mediaType: string;
  byteSize: number;
}

const CID = /^[0-9a-f]{64}$/;

/** A cid is the sha256 of the bytes in lower-case hex; anything else names nothing. */
export function isCid(value: string): boolean {
  return CID.test(value);
}

/** Where an attachment's bytes are served, relative to the server's base URL. */
export function attachmentPath(cid: string): string {
  return `/attachments/${cid}`;
}

// RFC 9110: type "/" subtype, both tokens, then parameters; the essence is what is stored.
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const MEDIA_TYPE = new RegExp(`^(${TOKEN})/(${TOKEN})\\s*(;.*)?$`);

/**
 * The media type a Content-Type header names, lower-cased, with a `charset` parameter kept (a text
 * attachment is read by it); null when the header is missing or malformed.
 */
export function mediaTypeOf(header: string | undefined): string | null {
  const match = header === undefined ? null : MEDIA_TYPE.exec(header.trim());
  if (!match) return null;
  const essence = `${match[1]}/${match[2]}`.toLowerCase();
  const charset = /;\s*charset\s*=\s*"?([!#$%&'*+.^_`|~0-9A-Za-z-]+)"?/i.exec(match[3] ?? '');
  const type = charset ? `${essence}; charset=${charset[1].toLowerCase()}` : essence;
  return type.length <= MEDIA_TYPE_MAX_CHARS ? type : null;
}

/** Media types whose bytes are text a model can read as such. */
export function isTextMediaType(mediaType: string): boolean {
  const essence = mediaType.split(';', 1)[0];
  return (
    essence.startsWith('text/') ||
    /^application\/(json|xml|javascript|ecmascript|x-yaml|yaml|toml|x-sh|sql|graphql)$/.test(essence) ||
    /\+(json|xml)$/.test(essence)
  );
}

/** Images a model can be shown as images. */
export function isImageMediaType(mediaType: string): boolean {
  return /^image\/(png|jpeg|gif|webp)$/.test(mediaType.split(';', 1)[0]);
}

/** Problems with an upload's file name. */
export function validateAttachmentName(name: string | undefined): ErrorDetail[] {
  const path = ['name'];
  if (name === undefined || name.trim().length === 0) return [{ path, message: 'Name the file: POST /attachments?name=<file name>.' }];
  if (name.length > ATTACHMENT_NAME_MAX_CHARS) return [{ path, message: `A file name has at most ${ATTACHMENT_NAME_MAX_CHARS} characters.` }];
  if (unstorableText(name, path).length > 0) return [{ path, message: UNSTORABLE_TEXT_MESSAGE }];
  return [];
}

/** Problems with the cids a message links: each a cid, none twice, at most {@link MESSAGE_ATTACHMENTS_MAX}. */
export function validateAttachmentCids(cids: string[], pathPrefix: string[]): ErrorDetail[] {
  if (cids.length > MESSAGE_ATTACHMENTS_MAX) {
    return [{ path: pathPrefix, message: `A message links at most ${MESSAGE_ATTACHMENTS_MAX} attachments.` }];
  }
  return cids.flatMap((cid, index) => {
    const path = [...pathPrefix, String(index)];
    if (!isCid(cid)) return [{ path, message: 'A cid is the sha256 of the bytes, 64 lower-case hex digits.' }];
    if (cids.indexOf(cid) !== index) return [{ path, message: 'This attachment is linked twice.' }];
    return [];
  });
}

/** How a reference reads in a context, bytes never included. */
export function describeAttachment(attachment: AttachmentReference): string {
  return `${attachment.name} (${attachment.mediaType}, ${attachment.byteSize} bytes, cid ${attachment.cid})`;
}
