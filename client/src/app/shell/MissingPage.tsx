import { Link } from 'react-router';
import { TopBar } from './TopBar';

interface MissingPageProps {
  /** What the page would have shown, when it does not exist: "Session not found". */
  notFound: string;
  /** When it could not be loaded: "The session could not be loaded". */
  failed: string;
  error?: Error | null;
}

/** A page whose subject does not exist, is another account's, or could not be loaded. */
export function MissingPage({ notFound, failed, error }: MissingPageProps) {
  return (
    <div className="page">
      <TopBar>
        <h1>{error ? failed : notFound}</h1>
      </TopBar>
      <section className="page-state">
        <p role={error ? 'alert' : undefined}>{error?.message ?? 'It does not exist, or it belongs to another account.'}</p>
        <Link to="/">Start a new conversation</Link>
      </section>
    </div>
  );
}
