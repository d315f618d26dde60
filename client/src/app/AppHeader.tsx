import { useQuery } from '@apollo/client/react';
import { Link } from 'react-router';
import { graphql } from '../gql';
import { useApiKey } from './auth';
import { useServerHealth, type ServerHealth } from './useServerHealth';

export const ViewerQuery = graphql(`
  query Viewer {
    viewer {
      id
      name
    }
  }
`);

const HEALTH_LABEL: Record<ServerHealth, string> = {
  checking: 'Checking server…',
  ok: 'Server online',
  unreachable: 'Server unreachable',
};

export function AppHeader() {
  const health = useServerHealth();
  const { data } = useQuery(ViewerQuery);
  const { signOut } = useApiKey();

  return (
    <header className="app-header">
      <Link to="/" className="app-title">
        Session Continuation
      </Link>
      <div className="app-header-end">
        <span className={`health health-${health}`} role="status">
          {HEALTH_LABEL[health]}
        </span>
        {data && (
          <span className="viewer">
            <span className="visually-hidden">Signed in as </span>
            {data.viewer.name}
          </span>
        )}
        <button type="button" className="button button-quiet" onClick={signOut}>
          Sign out
        </button>
      </div>
    </header>
  );
}
