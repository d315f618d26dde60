import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useSignedInKey } from '../../app/auth';
import { useCommands, type Command } from '../../app/commands';
import { DeleteSessionDialog } from './DeleteSessionDialog';
import { downloadBundle, type BundleScope } from './portability';
import './lifecycle.css';

interface LifecycleSession {
  id: string;
  title: string;
  eventCount: number;
  erasedAt?: string | null;
}

/**
 * A conversation's life-cycle actions, for its menu and the command palette: export it (the whole
 * lineage, or this session) as a bundle, and delete it for good after a typed confirmation.
 */
export function useLifecycleActions(session: LifecycleSession | null, lineageTitles: string[]) {
  const apiKey = useSignedInKey();
  const navigate = useNavigate();
  const [deleting, setDeleting] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const sessionId = session?.id ?? null;
  const erased = Boolean(session?.erasedAt);

  const exportAs = useCallback(
    async (scope: BundleScope) => {
      if (!apiKey || !sessionId) return;
      setProblem(null);
      const error = await downloadBundle(apiKey, sessionId, scope).catch((caught: unknown) => (caught instanceof Error ? caught.message : String(caught)));
      if (error) setProblem(`The export failed: ${error}`);
    },
    [apiKey, sessionId],
  );

  const commands = useMemo<Command[]>(() => {
    if (!sessionId) return [];
    const offered: Command[] = [{ id: 'export-lineage', label: 'Export this conversation (zip bundle)', keywords: 'download backup bundle lineage', run: () => void exportAs('lineage') }];
    if (!erased) offered.push({ id: 'delete-session', label: 'Delete this conversation for good…', keywords: 'erase remove forget gdpr', run: () => setDeleting(true) });
    return offered;
  }, [sessionId, erased, exportAs]);
  useCommands(commands);

  const menu = (close: () => void): ReactNode =>
    sessionId && (
      <section aria-label="Export and delete" className="menu-section">
        <button type="button" className="menu-item" onClick={() => (close(), void exportAs('lineage'))}>
          Export the conversation (.zip)
        </button>
        {lineageTitles.length > 1 && (
          <button type="button" className="menu-item" onClick={() => (close(), void exportAs('session'))}>
            Export this session only (.zip)
          </button>
        )}
        {!erased && (
          <button type="button" className="menu-item menu-item-danger" onClick={() => (close(), setDeleting(true))}>
            Delete for good…
          </button>
        )}
      </section>
    );

  const overlay = (
    <>
      {deleting && session && (
        <DeleteSessionDialog
          session={session}
          lineageTitles={lineageTitles}
          onClose={() => setDeleting(false)}
          onErased={(scope) => {
            setDeleting(false);
            if (scope === 'LINEAGE') void navigate('/');
          }}
        />
      )}
      {problem && (
        <p className="notice notice-error" role="alert">
          {problem}
        </p>
      )}
    </>
  );
  return { menu, overlay };
}
