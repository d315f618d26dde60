import { expect, it } from '@jest/globals';
import { createCache } from '../../../app/cache';
import { event, transcriptMock } from '../../../test/session-page-harness';
import { SessionTranscriptQuery, TRANSCRIPT_PAGE_SIZE } from '../useSessionTranscript';

it('merges', () => {
  const cache = createCache();
  const a = transcriptMock({ events: [event(3), event(4), event(5)], hasPreviousPage: true, totalCount: 5 });
  const b = transcriptMock({ events: [event(1), event(2), event(3)], totalCount: 5 }, 'cursor-3');
  cache.writeQuery({ query: SessionTranscriptQuery, variables: { id: 'session-1', last: TRANSCRIPT_PAGE_SIZE }, data: (a.result as any).data });
  cache.writeQuery({ query: SessionTranscriptQuery, variables: { id: 'session-1', last: TRANSCRIPT_PAGE_SIZE, before: 'cursor-3' }, data: (b.result as any).data });
  const read = cache.readQuery({ query: SessionTranscriptQuery, variables: { id: 'session-1', last: TRANSCRIPT_PAGE_SIZE } });
  console.log(read?.session?.events.edges.map((e) => e.node.seq));
  expect(1).toBe(1);
});
