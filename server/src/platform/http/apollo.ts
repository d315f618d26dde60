import type { IncomingMessage, Server } from 'node:http';
import { ApolloServer, BaseContext } from '@apollo/server';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import { GraphQLError, GraphQLSchema } from 'graphql';
import type { Logger } from 'pino';
import { formatGraphQLError } from '../../shared/graphql/errors';
import { logger } from '../observability/logger';
import { limitRules, operationCostError, parseOptions, tooManyVariableErrors } from './graphql-limits';
import { graphiqlLandingPage } from './graphiql';
import { operationMetrics } from './metrics-route';
import { nameOperation, unexpectedErrorLog } from './request-log';

/** What a GraphQL request's context carries for its log lines, besides what the modules add. */
export type HttpContext = BaseContext & { requestId?: string; log?: Logger; request?: IncomingMessage };

/** A subscription has no single answer: it is served by the streaming transports. */
function subscriptionOverHttpError(): GraphQLError {
  return new GraphQLError(
    'Subscriptions are not served over plain HTTP: subscribe over WebSocket at /graphql (the graphql-ws protocol) or over Server-Sent Events at /graphql/stream (the graphql-sse protocol).',
    { extensions: { code: 'BAD_REQUEST', http: { status: 400 } } },
  );
}

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
    // GET serves queries (GraphQL over HTTP; urql and Relay send them so), mutations stay POST-only.
    // The key travels in the Authorization header, never in a cookie: a request carrying it is no
    // simple request a form or an <img> could make, so it cannot be a cross-site request forgery.
    csrfPrevention: { requestHeaders: ['authorization', 'apollo-require-preflight', 'x-apollo-operation-name'] },
    parseOptions,
    validationRules: limitRules,
    // The process entry point owns signals: it stops HTTP, WebSocket and the database in order.
    stopOnTerminationSignals: false,
    formatError: (formatted, error) => formatGraphQLError(formatted, error, development),
    logger,
    plugins: [
      // First: its answer replaces errors that the unexpected-error log would otherwise see.
      {
        async requestDidStart() {
          return {
            async didResolveOperation({ request, document, operation, operationName, contextValue }) {
              if (operationName && contextValue.request) nameOperation(contextValue.request, operationName);
              if (operation?.operation === 'subscription') throw subscriptionOverHttpError();
              // Apollo Server has resolved the operation by now; its type cannot say so.
              const error = operation && operationCostError(schema, document, operation, request.variables);
              if (error) throw error;
            },
            async willSendResponse({ response, errors }) {
              // Variables are coerced once, by execution: past graphql-js's error limit, one request error answers.
              const refusal = errors && response.body.kind === 'single' ? tooManyVariableErrors(errors) : null;
              if (!refusal || response.body.kind !== 'single') return;
              response.body.singleResult = { errors: [{ message: refusal.message, extensions: { code: refusal.extensions.code } }] };
              response.http.status = 400;
            },
          };
        },
      },
      unexpectedErrorLog(logger),
      operationMetrics(),
      graphiqlLandingPage(),
      ApolloServerPluginDrainHttpServer({ httpServer }),
      // No cache hints are served; the default cache-control plugin would hook every resolved field.
      ApolloServerPluginCacheControlDisabled(),
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
