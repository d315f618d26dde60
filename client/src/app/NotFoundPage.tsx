import { Link } from 'react-router';
import { TopBar } from './shell/TopBar';
import { useDocumentTitle } from './useDocumentTitle';

export function NotFoundPage() {
  useDocumentTitle('Page not found');
  return (
    <div className="page">
      <TopBar>
        <h1>Page not found</h1>
      </TopBar>
      <section className="page-state">
        <Link to="/">Start a new conversation</Link>
      </section>
    </div>
  );
}
