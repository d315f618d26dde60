import { CreateSessionForm } from './CreateSessionForm';
import { SessionList } from './SessionList';
import './sessions.css';

/** The route `/`: start a session or open one. */
export function SessionsPage() {
  return (
    <div className="sessions-page">
      <h1 className="visually-hidden">Your sessions</h1>
      <CreateSessionForm />
      <section aria-labelledby="session-list-title" className="sessions-section">
        <h2 id="session-list-title">All sessions</h2>
        <SessionList />
      </section>
    </div>
  );
}
