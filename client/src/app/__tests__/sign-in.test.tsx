import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, render, screen } from '@testing-library/react';
import { API_KEY_STORAGE_KEY } from '../api-key';
import { App } from '../App';
import { ApiKeyProvider, RequireApiKey } from '../auth';

function renderGate() {
  return render(
    <ApiKeyProvider>
      <RequireApiKey>
        <p>Signed in</p>
      </RequireApiKey>
    </ApiKeyProvider>,
  );
}

function visit(address: string) {
  window.history.replaceState(null, '', address);
}

beforeEach(() => {
  window.localStorage.clear();
  visit('/');
});

describe('signing in', () => {
  it('stores the key of a sign-in link and removes it from the address bar', () => {
    visit('/sessions/s-1?key=link-key&view=compact#latest');

    renderGate();

    expect(screen.getByText('Signed in')).toBeInTheDocument();
    expect(window.localStorage.getItem(API_KEY_STORAGE_KEY)).toBe('link-key');
    expect(window.location.pathname).toBe('/sessions/s-1');
    expect(window.location.search).toBe('?view=compact');
    expect(window.location.hash).toBe('#latest');
  });

  it('prefers a sign-in link over the key stored from an earlier visit', () => {
    window.localStorage.setItem(API_KEY_STORAGE_KEY, 'old-key');
    visit('/?key=new-key');

    renderGate();

    expect(window.localStorage.getItem(API_KEY_STORAGE_KEY)).toBe('new-key');
    expect(window.location.search).toBe('');
  });

  it('signs in with the stored key when the address has none', () => {
    window.localStorage.setItem(API_KEY_STORAGE_KEY, 'stored-key');

    renderGate();

    expect(screen.getByText('Signed in')).toBeInTheDocument();
  });

  it('asks for a key when none is known, and signs in with a pasted one', () => {
    renderGate();

    expect(screen.queryByText('Signed in')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('API key'), { target: { value: '  pasted-key  ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(screen.getByText('Signed in')).toBeInTheDocument();
    expect(window.localStorage.getItem(API_KEY_STORAGE_KEY)).toBe('pasted-key');
  });

  it('treats an empty key in the link as no key', () => {
    visit('/?key=');

    renderGate();

    expect(screen.getByLabelText('API key')).toBeInTheDocument();
    expect(window.location.search).toBe('');
    expect(window.localStorage.getItem(API_KEY_STORAGE_KEY)).toBeNull();
  });
});

describe('a key the server rejects', () => {
  const originalFetch = globalThis.fetch;
  let requests: { url: string; headers: Headers }[];

  /** Answers /healthz as healthy and every GraphQL request with the given refusal. */
  function serverRefusing(status: number) {
    requests = [];
    globalThis.fetch = jest.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      requests.push({ url, headers: new Headers(init?.headers) });
      const health = url.endsWith('/healthz');
      const body = health
        ? { status: 'ok' }
        : { errors: [{ message: 'Unknown API key', extensions: { code: 'UNAUTHENTICATED' } }] };
      return new Response(JSON.stringify(body), {
        status: health ? 200 : status,
        headers: { 'content-type': 'application/json' },
      });
    }) as typeof fetch;
  }

  const originalWebSocket = globalThis.WebSocket;
  // The app subscribes over graphql-ws as soon as it has a key; a component test has no server,
  // so the socket stays connecting rather than failing at a moment the test does not control.
  beforeEach(() => {
    globalThis.WebSocket = class {
      static readonly CONNECTING = 0;
      readonly readyState = 0;
      readonly protocol = '';
      close(): void {}
      send(): void {}
    } as unknown as typeof WebSocket;
  });

  afterEach(() => {
    globalThis.fetch = originalFetch;
    globalThis.WebSocket = originalWebSocket;
  });

  it.each([200, 401])('is forgotten when refused with HTTP %i, and the sign-in screen says why', async (status) => {
    serverRefusing(status);
    window.localStorage.setItem(API_KEY_STORAGE_KEY, 'revoked-key');

    render(<App />);

    expect(await screen.findByRole('alert')).toHaveTextContent('The server rejected this API key');
    expect(screen.getByLabelText('API key')).toBeInTheDocument();
    expect(window.localStorage.getItem(API_KEY_STORAGE_KEY)).toBeNull();
    const graphqlRequest = requests.find((request) => request.url.endsWith('/graphql'));
    expect(graphqlRequest?.headers.get('authorization')).toBe('Bearer revoked-key');
  });
});
