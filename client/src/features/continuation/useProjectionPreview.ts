import { useApolloClient } from '@apollo/client/react';
import { useEffect, useState } from 'react';
import { graphql } from '../../gql';
import { randomUUID } from '../../app/random-uuid';
import type { PreviewProjectionQuery as PreviewProjectionResult } from '../../gql/graphql';
import { continuationInput, type ContinuationRequest } from './useContinueSession';

export const PreviewProjectionQuery = graphql(`
  query PreviewProjection($input: ContinueSessionInput!) {
    previewProjection(input: $input) {
      __typename
      ... on ProjectionPreview {
        tokenBudget
        tokenCost
        context {
          sections {
            kind
            tokenCount
          }
        }
        items {
          ...ManifestItemRow
        }
      }
      ... on OperationError {
        ...OperationErrorNoticeFields
      }
    }
  }
`);

export type ProjectionPreviewResult = PreviewProjectionResult['previewProjection'];

/** A continuation request before it is confirmed: it has no idempotency key yet. */
export type ContinuationDraft = Omit<ContinuationRequest, 'idempotencyKey'>;

/** A pause in typing this long asks for a preview; every keystroke would ask the compiler in vain. */
const PREVIEW_DELAY_MS = 400;

export interface ProjectionPreviewState {
  /** The latest answer: what the successor would start from, or the refusal continueSession would give. */
  result: ProjectionPreviewResult | null;
  /** Why the latest preview could not be computed at all (network, unreadable transcript). */
  failure: string | null;
  /** A preview of newer input is on its way; `result` still describes the older one. */
  pending: boolean;
}

const NO_PREVIEW: ProjectionPreviewState = { result: null, failure: null, pending: false };

/**
 * Previews what continueSession would do with `draft` (null: nothing to preview yet), once the
 * person pauses. The server compiles the projection exactly as it would on confirming and writes nothing.
 */
export function useProjectionPreview(draft: ContinuationDraft | null): ProjectionPreviewState {
  const client = useApolloClient();
  const [state, setState] = useState<ProjectionPreviewState>(NO_PREVIEW);

  useEffect(() => {
    if (!draft) {
      setState(NO_PREVIEW);
      return;
    }
    // Answers to an earlier draft arrive after it changed or the form closed: drop them.
    let current = true;
    setState((previous) => ({ ...previous, pending: true }));
    const timer = setTimeout(async () => {
      try {
        // A preview writes nothing, so its key only has to be well-formed.
        const input = await continuationInput(client, { ...draft, idempotencyKey: randomUUID() });
        const { data } = await client.query({
          query: PreviewProjectionQuery,
          variables: { input },
          // Every edit is a new input: caching the answers would only pile them up.
          fetchPolicy: 'no-cache',
        });
        if (!data) throw new Error('The server sent no preview.');
        if (current) setState({ result: data.previewProjection, failure: null, pending: false });
      } catch (caught) {
        if (current) setState({ result: null, failure: caught instanceof Error ? caught.message : String(caught), pending: false });
      }
    }, PREVIEW_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [client, draft]);

  return state;
}
