import type { ApolloCache, Reference } from '@apollo/client';
import { graphql } from '../../gql';
import type { RunStateFragment } from '../../gql/graphql';

export const RunStateFragmentDocument = graphql(`
  fragment RunState on Run {
    id
    kind
    status
    error
  }
`);

/**
 * Adds a run the subscription announced to its session's cached list of runs (oldest first),
 * unless it is already there. Runs are normalized by id, so a known run needs no more than the
 * write the subscription itself made; a new one (the turn for a message just posted) is appended.
 */
export function addRunToSession(cache: ApolloCache, sessionId: string, run: RunStateFragment): void {
  const runRef = cache.writeFragment({ fragment: RunStateFragmentDocument, data: run });
  if (!runRef) return;
  cache.modify<{ runs: Reference[] }>({
    id: cache.identify({ __typename: 'Session', id: sessionId }),
    fields: {
      runs(existing, { readField, storeFieldName, isReference }) {
        // Only the lists of all runs (whole, or the newest few): a list by status would need the run's status to decide.
        const newest = /^runs(?:\(\{"last":(\d+)\}\))?$/.exec(storeFieldName);
        if (!newest || isReference(existing)) return existing;
        if (existing.some((known) => readField('id', known) === run.id)) return existing;
        const runs = [...existing, runRef];
        return newest[1] === undefined ? runs : runs.slice(-Number(newest[1]));
      },
    },
  });
}
