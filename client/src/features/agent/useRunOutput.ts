import { useSubscription } from '@apollo/client/react';
import { useState } from 'react';
import { graphql } from '../../gql';

export const RunOutputSubscription = graphql(`
  subscription RunOutput($runId: ID!) {
    runOutput(runId: $runId) {
      runId
      offset
      text
    }
  }
`);

/**
 * A running turn's answer as it is produced. The server sends it from its start; a piece this
 * view already has (a resubscription repeats from offset 0) is dropped by its offset.
 */
export function useRunOutput(runId: string | null): string {
  const [output, setOutput] = useState<{ runId: string | null; text: string }>({ runId: null, text: '' });
  useSubscription(RunOutputSubscription, {
    variables: { runId: runId ?? '' },
    skip: runId === null,
    onData({ data }) {
      const chunk = data.data?.runOutput;
      if (!chunk) return;
      setOutput((known) => {
        const text = known.runId === chunk.runId ? known.text : '';
        if (chunk.offset > text.length || chunk.offset + chunk.text.length <= text.length) return { runId: chunk.runId, text };
        return { runId: chunk.runId, text: text + chunk.text.slice(text.length - chunk.offset) };
      });
    },
  });
  return output.runId === runId ? output.text : '';
}
