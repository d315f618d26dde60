import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { API_KEY_STORAGE_KEY } from '../../../app/api-key';
import { ApiKeyProvider } from '../../../app/auth';
import { AttachmentList } from '../AttachmentList';
import { AttachmentPicker } from '../AttachmentPicker';
import { useAttachmentUploads } from '../useAttachmentUploads';

/** Stands in for the browser's XMLHttpRequest: records each request and answers when told. */
class FakeXMLHttpRequest {
  static sent: FakeXMLHttpRequest[] = [];
  upload: { onprogress: ((event: { loaded: number; total: number; lengthComputable: boolean }) => void) | null } = { onprogress: null };
  headers: Record<string, string> = {};
  method = '';
  url = '';
  body: unknown = null;
  status = 0;
  responseText = '';
  aborted = false;
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: unknown) {
    this.body = body;
    FakeXMLHttpRequest.sent.push(this);
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  progress(loaded: number, total: number) {
    act(() => this.upload.onprogress?.({ loaded, total, lengthComputable: true }));
  }
  /** Answers, and lets the page take the answer in (its promise settles on a later tick). */
  async respond(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    await act(async () => this.onload?.());
  }
}

function Draft() {
  const attached = useAttachmentUploads();
  return (
    <>
      <AttachmentPicker drafts={attached.drafts} onAdd={attached.add} onRemove={attached.remove} />
      <output data-testid="cids">{attached.cids.join(',')}</output>
      <output data-testid="uploading">{String(attached.uploading)}</output>
    </>
  );
}

const signedIn = (children: React.ReactNode) => render(<ApiKeyProvider>{children}</ApiKeyProvider>);
const cid = 'c'.repeat(64);

describe('attaching files to a draft', () => {
  const realXhr = window.XMLHttpRequest;
  beforeEach(() => {
    FakeXMLHttpRequest.sent = [];
    window.localStorage.setItem(API_KEY_STORAGE_KEY, 'sck_test_key');
    window.XMLHttpRequest = FakeXMLHttpRequest as unknown as typeof XMLHttpRequest;
  });
  afterEach(() => {
    window.XMLHttpRequest = realXhr;
    window.localStorage.clear();
  });

  it('uploads each chosen file at once with the key and its type, shows its progress, and offers its cid once stored', async () => {
    signedIn(<Draft />);
    const file = new File([new Uint8Array(100)], 'red dot.png', { type: 'image/png' });
    fireEvent.change(screen.getByLabelText('Files to attach'), { target: { files: [file] } });

    const [request] = FakeXMLHttpRequest.sent;
    expect(request).toMatchObject({
      method: 'POST',
      url: '/attachments?name=red%20dot.png',
      headers: { Authorization: 'Bearer sck_test_key', 'Content-Type': 'image/png' },
      body: file,
    });
    request.progress(40, 100);
    expect(screen.getByRole('progressbar', { name: 'Uploading red dot.png' })).toHaveAttribute('value', '40');
    expect(screen.getByTestId('uploading')).toHaveTextContent('true');

    await request.respond(201, { cid, name: 'red dot.png', mediaType: 'image/png', byteSize: 100, url: `/attachments/${cid}` });
    await waitFor(() => expect(screen.getByTestId('cids')).toHaveTextContent(cid));
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(screen.getByTestId('uploading')).toHaveTextContent('false');
    expect(screen.getByText('100 B')).toBeInTheDocument();
  });

  it("shows the server's reason for a refused file, sends an unknown type as octet-stream, and cancels a removed upload", async () => {
    signedIn(<Draft />);
    fireEvent.change(screen.getByLabelText('Files to attach'), { target: { files: [new File(['x'.repeat(20)], 'big.log')] } });
    const [refused] = FakeXMLHttpRequest.sent;
    expect(refused.headers['Content-Type']).toBe('application/octet-stream');
    await refused.respond(413, { errors: [{ message: 'An attachment has at most 10 bytes.', extensions: { code: 'INVALID_INPUT' } }] });
    expect(await screen.findByRole('alert')).toHaveTextContent('An attachment has at most 10 bytes.');
    expect(screen.getByTestId('cids')).toHaveTextContent('');

    fireEvent.change(screen.getByLabelText('Files to attach'), { target: { files: [new File(['y'], 'later.txt', { type: 'text/plain' })] } });
    const pending = FakeXMLHttpRequest.sent[1];
    // The cancelled upload settles on a later tick.
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Remove later.txt' })));
    expect(pending.aborted).toBe(true);
    expect(screen.queryByText('later.txt')).not.toBeInTheDocument();
  });
});

describe('the attachments of a message', () => {
  const realFetch = globalThis.fetch;
  const realCreate = URL.createObjectURL;
  const realRevoke = URL.revokeObjectURL;
  let fetched: { url: string; authorization: string | undefined }[];

  beforeEach(() => {
    fetched = [];
    window.localStorage.setItem(API_KEY_STORAGE_KEY, 'sck_test_key');
    globalThis.fetch = jest.fn(async (url: string | URL | Request, init?: RequestInit) => {
      fetched.push({ url: String(url), authorization: (init?.headers as Record<string, string> | undefined)?.Authorization });
      return { ok: true, status: 200, blob: async () => new Blob(['bytes']) } as Response;
    }) as typeof fetch;
    URL.createObjectURL = jest.fn(() => 'blob:attachment');
    URL.revokeObjectURL = jest.fn();
  });
  afterEach(() => {
    // Unmounted first: unmounting revokes the object URLs.
    cleanup();
    globalThis.fetch = realFetch;
    URL.createObjectURL = realCreate;
    URL.revokeObjectURL = realRevoke;
    window.localStorage.clear();
  });

  it('shows an image as a thumbnail fetched with the key that opens full size, and another file as a download fetched only when asked', async () => {
    const image = { __typename: 'Attachment' as const, cid, name: 'red.png', mediaType: 'image/png', byteSize: 2048, url: `/attachments/${cid}` };
    const notes = { __typename: 'Attachment' as const, cid: 'd'.repeat(64), name: 'notes.txt', mediaType: 'text/plain', byteSize: 25, url: `/attachments/${'d'.repeat(64)}` };
    signedIn(<AttachmentList attachments={[image, notes]} />);

    expect(await screen.findByRole('img', { name: 'red.png' })).toHaveAttribute('src', 'blob:attachment');
    expect(screen.getByRole('link', { name: 'Open red.png, 2 KB full size' })).toHaveAttribute('href', 'blob:attachment');
    expect(screen.getByText('text/plain · 25 B')).toBeInTheDocument();
    expect(fetched).toEqual([{ url: image.url, authorization: 'Bearer sck_test_key' }]);

    fireEvent.click(screen.getByRole('button', { name: 'notes.txt' }));
    await waitFor(() => expect(fetched).toHaveLength(2));
    expect(fetched[1]).toEqual({ url: notes.url, authorization: 'Bearer sck_test_key' });
  });
});
