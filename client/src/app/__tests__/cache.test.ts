import { describe, expect, it } from '@jest/globals';
import { gql } from '@apollo/client';
import { createCache } from '../cache';

const SESSION = gql`
  fragment SessionState on Session {
    id
    status
    currentContinuation {
      id
    }
  }
`;

function write(cache: ReturnType<typeof createCache>, status: string, currentContinuationId: string) {
  cache.writeFragment({
    fragment: SESSION,
    data: { __typename: 'Session', id: 'session-1', status, currentContinuation: { __typename: 'Session', id: currentContinuationId } },
  });
}

function read(cache: ReturnType<typeof createCache>) {
  return cache.readFragment<{ status: string; currentContinuation: { id: string } }>({ fragment: SESSION, id: 'Session:session-1' });
}

describe('the cache keeps what it knows of a continuation', () => {
  it('an answer read before the continuation, landing after it, does not make the session active again', () => {
    const cache = createCache();
    write(cache, 'ACTIVE', 'session-1');
    write(cache, 'CONTINUED', 'session-2');
    write(cache, 'ACTIVE', 'session-1');
    expect(read(cache)).toMatchObject({ status: 'CONTINUED', currentContinuation: { id: 'session-2' } });
  });

  it('follows newer continuations as they come', () => {
    const cache = createCache();
    write(cache, 'CONTINUED', 'session-2');
    write(cache, 'CONTINUED', 'session-3');
    expect(read(cache)).toMatchObject({ status: 'CONTINUED', currentContinuation: { id: 'session-3' } });
  });
});
