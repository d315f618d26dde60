import type { Server } from 'node:http';
import { ApolloServer, BaseContext } from '@apollo/server';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import type { GraphQLSchema } from 'graphql';
import type { Logger } from 'pino';
import { formatGraphQLError } from '../../shared/graphql/errors';
import { logger } from '../observability/logger';
import { limitRules, operationLimitError, parseOptions } from './graphql-limits';
import { graphiqlLandingPage } from './graphiql';
import { operationMetrics } from './metrics-route';
import { unexpectedErrorLog } from './request-log';

/** What a GraphQL request's context carries for its log lines, besides what the modules add. */
export type HttpContext = BaseContext & { requestId?: string; log?: Logger };

/**
 * Apollo Server for GraphQL over HTTP, with the operation limits, metrics and error log of every
 * request; stopping it drains the HTTP server and then runs `onDrain` (the WebSocket server's stop).
 */
export async function startApollo(options: {
  schema: GraphQLSchema;
  development: boolean;
  httpServer: Server;
  onDrain(): Promise<void>;
}): Promise<ApolloServer<HttpContext>> {
  const { schema, development, httpServer } = options;
  const apollo = new ApolloServer<HttpContext>({
    schema,
    includeStacktraceInErrorResponses: development,
    // The API is public and typed: codegen and GraphiQL introspect it in production too (Apollo's
    // default turns introspection off under NODE_ENV=production).
    introspection: true,
    parseOptions,
    validationRules: limitRules,
    // The process entry point owns signals: it stops HTTP, WebSocket and the database in order.
    stopOnTerminationSignals: false,
    formatError: (formatted, error) => formatGraphQLError(formatted, error, development),
    logger,
    plugins: [
      unexpectedErrorLog(logger),
      operationMetrics(),
      graphiqlLandingPage(),
      ApolloServerPluginDrainHttpServer({ httpServer }),
      // No cache hints are served; the default cache-control plugin would hook every resolved field.
      ApolloServerPluginCacheControlDisabled(),
      {
        async requestDidStart() {
          return {
            async didResolveOperation({ request, document, operation }) {
              // Apollo Server has resolved the operation by now; its type cannot say so.
              const error = operation && operationLimitError(schema, document, operation, request.variables);
              if (error) throw error;
            },
          };
        },
      },
      {
        async serverWillStart() {
          return { drainServer: options.onDrain };
        },
      },
    ],
  });
  await apollo.start();
  return apollo;
}
