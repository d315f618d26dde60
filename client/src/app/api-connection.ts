import { ApolloClient, ApolloLink, CombinedGraphQLErrors, HttpLink, ServerError } from '@apollo/client';
import { ErrorLink } from '@apollo/client/link/error';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import { OperationTypeNode } from 'graphql';
import { CloseCode, createClient } from 'graphql-ws';
import { createCache } from './cache';

export interface ApiConnection {
  client: ApolloClient;
  /** Closes the WebSocket; the client must not be used afterwards. */
  close(): void;
}

interface ConnectOptions {
  /** Called when the server refuses the key, over HTTP or on the WebSocket handshake. */
  onUnauthenticated(): void;
}

/** The graphql-ws endpoint on the origin that served the page (the dev server proxies it). */
export function graphqlWebSocketUrl(location: Location): string {
  const protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${protocol}//${location.host}/graphql`;
}

/** The server signals a missing or unknown key as UNAUTHENTICATED, with HTTP 200 or 401. */
export function isUnauthenticated(error: unknown): boolean {
  if (CombinedGraphQLErrors.is(error)) {
    return error.errors.some((graphQLError) => graphQLError.extensions?.code === 'UNAUTHENTICATED');
  }
  return ServerError.is(error) && error.statusCode === 401;
}

/**
 * An Apollo Client for one API key: queries and mutations over HTTP, subscriptions over
 * graphql-ws, both authenticated with the key. A new key gets a new connection, so no cached
 * data of one account survives into another.
 */
export function connectToApi(apiKey: string, { onUnauthenticated }: ConnectOptions): ApiConnection {
  const authorization = `Bearer ${apiKey}`;

  const webSocketClient = createClient({
    url: graphqlWebSocketUrl(window.location),
    connectionParams: { authorization },
    on: {
      // The server answers a connection_init with an unknown key by closing with 4403.
      closed(event) {
        if ((event as CloseEvent).code === CloseCode.Forbidden) onUnauthenticated();
      },
    },
  });

  const rejectedKeyLink = new ErrorLink(({ error }) => {
    if (isUnauthenticated(error)) onUnauthenticated();
  });

  const transportLink = ApolloLink.split(
    ({ operationType }) => operationType === OperationTypeNode.SUBSCRIPTION,
    new GraphQLWsLink(webSocketClient),
    new HttpLink({ uri: '/graphql', headers: { authorization } }),
  );

  const client = new ApolloClient({
    cache: createCache(),
    link: ApolloLink.from([rejectedKeyLink, transportLink]),
  });

  return {
    client,
    close() {
      client.stop();
      void webSocketClient.dispose();
    },
  };
}
