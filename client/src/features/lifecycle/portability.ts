/** Export and import go through plain HTTP routes with the API key, as attachments do. */

export type BundleScope = 'lineage' | 'session';

/** Downloads the bundle of a session (or its lineage) as the browser saves a file. Resolves to an error message, or null. */
export async function downloadBundle(apiKey: string, sessionId: string, scope: BundleScope): Promise<string | null> {
  const response = await fetch(`/exports/${encodeURIComponent(sessionId)}?scope=${scope}`, { headers: { Authorization: `Bearer ${apiKey}` } });
  if (!response.ok) return errorMessage(response);
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? `${scope}-${sessionId}.zip`;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the object URL; it can go once the click has been handled.
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
  return null;
}

export type ImportResult = { ok: true; rootSessionId: string; sessionIds: string[] } | { ok: false; message: string };

/** Sends a bundle (.zip) or a transcript in the OpenAI chat format (.json) to be imported. */
export async function importFile(apiKey: string, file: File): Promise<ImportResult> {
  const isJson = file.name.toLowerCase().endsWith('.json') || file.type === 'application/json';
  const response = await fetch('/imports', {
    method: 'POST',
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': isJson ? 'application/json' : 'application/zip' },
    body: file,
  });
  if (response.status !== 201) return { ok: false, message: await errorMessage(response) };
  const { rootSessionId, sessionIds } = (await response.json()) as { rootSessionId: string; sessionIds: string[] };
  return { ok: true, rootSessionId, sessionIds };
}

async function errorMessage(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { errors?: { message?: string }[] };
    return body.errors?.[0]?.message ?? `The server answered ${response.status}.`;
  } catch {
    return `The server answered ${response.status}.`;
  }
}
