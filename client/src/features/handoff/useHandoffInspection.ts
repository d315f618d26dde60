import { useQuery } from '@apollo/client/react';
import { graphql } from '../../gql';

export const HandoffInspectionQuery = graphql(`
  query HandoffInspection($edgeId: ID!) {
    continuationEdge(id: $edgeId) {
      id
      reason
      actor
      createdAt
      predecessor {
        id
        title
      }
      successor {
        id
        title
        origin {
          id
          title
          currentContinuation {
            id
          }
        }
        lineageTree {
          ...LineageMapNode
        }
      }
      handoff {
        ...HandoffDetails
      }
      manifest {
        id
        hash
        compilerVersion
        modelVersion
        createdAt
        lineageBlock
        tokenBudget
        tokenCost
        items {
          ...ManifestItemRow
        }
        transferredState {
          plan
          planRevision
          pendingRunIds
          pinnedTools
          pinnedResources {
            url
            version
            blockId
          }
        }
        context {
          tokenCount
          sections {
            kind
            text
            tokenCount
          }
        }
      }
    }
  }
`);

/** A continuation edge with its handoff and manifest; manifests never change, so the cache answers repeat visits. */
export function useHandoffInspection(edgeId: string) {
  const { data, loading, error } = useQuery(HandoffInspectionQuery, { variables: { edgeId } });
  return { edge: data?.continuationEdge ?? null, loading: loading && !data, error };
}
