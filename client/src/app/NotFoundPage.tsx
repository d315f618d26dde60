import { Link } from 'react-router';

export function NotFoundPage() {
  return (
    <section className="page-state">
      <h1>Page not found</h1>
      <Link to="/">Back to all sessions</Link>
    </section>
  );
}
