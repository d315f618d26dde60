import { useEffect } from 'react';

export const APP_NAME = 'Session Continuation';

/** The tab says what the page shows (`title · Session Continuation`); null keeps the app's name. */
export function useDocumentTitle(title: string | null | undefined): void {
  useEffect(() => {
    if (!title) return;
    document.title = `${title} · ${APP_NAME}`;
    return () => {
      document.title = APP_NAME;
    };
  }, [title]);
}
