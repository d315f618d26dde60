import { EventSearch } from '../search/EventSearch';
import { CreateSessionForm } from './CreateSessionForm';
import { SessionList } from './SessionList';
import './sessions.css';

/** The route `/`: start a session or open one. */
export function SessionsPage() {
  return (
    <div className="sessions-page">
      <h1 className="visually-hidden">Your sessions</h1>
      <CreateSessionForm />
      <EventSearch />
      <section aria-labelledby="session-list-title" className="sessions-section">
        <h2 id="session-list-title">All sessions</h2>
        <SessionList />
      </section>
    </div>
  );
}
