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

describe('the cache keeps what it knows of a transcript', () => {
  const COUNTERS = gql`
    fragment SessionCounters on Session {
      id
      eventCount
      tokenCount
    }
  `;

  function writeCounters(cache: ReturnType<typeof createCache>, eventCount: number, tokenCount: number) {
    cache.writeFragment({ fragment: COUNTERS, data: { __typename: 'Session', id: 'session-1', eventCount, tokenCount } });
  }

  it('an answer read before the agent replied, landing after the reply, does not take the counters back', () => {
    const cache = createCache();
    writeCounters(cache, 4, 120);
    writeCounters(cache, 3, 80);
    expect(cache.readFragment({ fragment: COUNTERS, id: 'Session:session-1' })).toMatchObject({ eventCount: 4, tokenCount: 120 });
  });

  it('follows the transcript as it grows', () => {
    const cache = createCache();
    writeCounters(cache, 3, 80);
    writeCounters(cache, 5, 150);
    expect(cache.readFragment({ fragment: COUNTERS, id: 'Session:session-1' })).toMatchObject({ eventCount: 5, tokenCount: 150 });
  });
});
