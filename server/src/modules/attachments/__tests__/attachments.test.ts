import { isCid, isImageMediaType, isTextMediaType, mediaTypeOf, validateAttachmentCids, validateAttachmentName } from '../attachments';

describe('attachment rules', () => {
  it('reads a Content-Type as its lower-cased essence, keeping only a charset, and refuses a malformed one', () => {
    expect(mediaTypeOf('image/PNG')).toBe('image/png');
    expect(mediaTypeOf('Text/Plain; Charset="UTF-8"; format=flowed')).toBe('text/plain; charset=utf-8');
    expect(mediaTypeOf('application/vnd.api+json')).toBe('application/vnd.api+json');
    for (const malformed of [undefined, '', 'image', 'image/', '/png', 'image/ png', 'image/png/x', 'ima ge/png', `a/${'b'.repeat(300)}`]) {
      expect(mediaTypeOf(malformed)).toBeNull();
    }
  });

  it('tells text a model can read, and images it can see', () => {
    expect(['text/plain; charset=utf-8', 'text/markdown', 'application/json', 'application/ld+json', 'image/svg+xml'].map(isTextMediaType)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(['image/png', 'application/pdf', 'application/octet-stream'].map(isTextMediaType)).toEqual([false, false, false]);
    expect(['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/svg+xml', 'image/tiff'].map(isImageMediaType)).toEqual([true, true, true, true, false, false]);
  });

  it('takes a cid only as 64 lower-case hex digits, each once, at most 20 to a message', () => {
    const cid = 'a'.repeat(64);
    expect(isCid(cid)).toBe(true);
    expect([cid.toUpperCase(), cid.slice(1), `${cid}0`, 'g'.repeat(64)].map(isCid)).toEqual([false, false, false, false]);
    expect(validateAttachmentCids([cid, 'b'.repeat(64)], ['input', 'attachments'])).toEqual([]);
    expect(validateAttachmentCids([cid, cid], ['input', 'attachments'])).toEqual([{ path: ['input', 'attachments', '1'], message: 'This attachment is linked twice.' }]);
    expect(validateAttachmentCids(Array.from({ length: 21 }, (_, index) => index.toString(16).padStart(64, '0')), ['input', 'attachments'])).toHaveLength(1);
  });

  it('wants a file name of 1 to 255 characters that the database can store', () => {
    expect(validateAttachmentName('photo.png')).toEqual([]);
    for (const bad of [undefined, '', '   ', 'x'.repeat(256), 'a\u0000b', '\ud800']) expect(validateAttachmentName(bad)).toHaveLength(1);
  });
});
