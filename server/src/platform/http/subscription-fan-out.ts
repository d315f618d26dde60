import { DocumentNode, ExecutionArgs, ExecutionResult, createSourceEventStream, execute } from 'graphql';
import { metrics } from '../observability/metrics';

/** How a transport lets one subscription share results with others. */
export interface SharedResults {
  /**
   * What results may be shared within: subscriptions whose operation differs in nothing but their
   * scope get executions of their own (the viewer's account and rights, since resolvers answer under them).
   */
  scope: string;
  /**
   * Sends a shared result to this subscriber, as the transport frames one: `payload` is the
   * result's JSON, serialised once for every subscriber. Without it, the transport is handed the
   * shared result object to serialise itself.
   */
  send?(payload: string): void;
}

interface SharedResult {
  result: ExecutionResult;
  /** The result's JSON; null when it has errors, which each transport formats and logs itself. */
  payload: string | null;
}

/** Each event's executions, by selection: they live as long as the event object does. */
const executions = new WeakMap<object, Map<string, Promise<SharedResult>>>();
const sharing = new WeakMap<object, SharedResults>();
const documentIds = new WeakMap<DocumentNode, number>();
let lastDocumentId = 0;

/**
 * Lets the subscription whose context this is share results with others: a transport registers
 * it as it makes the context, before the operation starts. Unregistered subscriptions share nothing.
 */
export function shareResults(context: object, shared: SharedResults): void {
  sharing.set(context, shared);
}

/** Operations that differ only in how their text is laid out are one selection once the document is the same object (a document cache sees to that). */
function selectionKey(args: ExecutionArgs, scope: string): string {
  let documentId = documentIds.get(args.document);
  if (documentId === undefined) {
    documentId = ++lastDocumentId;
    documentIds.set(args.document, documentId);
  }
  return `${documentId}\u0000${args.operationName ?? ''}\u0000${JSON.stringify(args.variableValues ?? {})}\u0000${scope}`;
}

/** The event executed for `args`' selection: once per event object, selection and scope, whoever asks first. */
function executeOnce(event: unknown, args: ExecutionArgs, key: string | null): Promise<SharedResult> {
  const run = async (): Promise<SharedResult> => {
    metrics.subscriptionResults.inc({ delivery: 'executed' });
    const result = (await execute({ ...args, rootValue: event })) as ExecutionResult;
    return { result, payload: result.errors ? null : JSON.stringify(result) };
  };
  if (key === null || typeof event !== 'object' || event === null) return run();
  let bySelection = executions.get(event);
  if (!bySelection) {
    bySelection = new Map();
    executions.set(event, bySelection);
  }
  let shared = bySelection.get(key);
  if (shared) {
    metrics.subscriptionResults.inc({ delivery: 'shared' });
  } else {
    shared = run();
    bySelection.set(key, shared);
  }
  return shared;
}

/**
 * GraphQL's `subscribe`, sharing work between subscribers: each subscription's source stream is
 * made by its own subscribe resolver (so access is checked for each subscriber as it
 * subscribes), but an event object that several streams yield (a published event, handed to
 * every listener as the same object) is executed once per distinct selection and scope (see
 * {@link shareResults}), and its result serialised once: a transport with a `send` gets those
 * bytes, any other the shared result object. Results with errors always go back through the
 * transport, which formats and logs them.
 *
 * Pass it as the `subscribe` of graphql-ws (or graphql-sse): it takes and returns what
 * graphql-js's `subscribe` does.
 */
export async function subscribeSharingResults(args: ExecutionArgs): Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult> {
  const source = await createSourceEventStream(args);
  if (!(Symbol.asyncIterator in source)) return source;
  const shared = typeof args.contextValue === 'object' && args.contextValue !== null ? sharing.get(args.contextValue) : undefined;
  const key = shared ? selectionKey(args, shared.scope) : null;
  const send = shared?.send;
  const events = source[Symbol.asyncIterator]();
  const stream: AsyncIterableIterator<ExecutionResult> = {
    [Symbol.asyncIterator]: () => stream,
    async next() {
      for (;;) {
        const next = await events.next();
        if (next.done) return { done: true, value: undefined };
        const { result, payload } = await executeOnce(next.value, args, key);
        if (send && payload !== null) send(payload);
        else return { done: false, value: result };
      }
    },
    async return() {
      // Ending the source ends a wait for its next event, so `next` settles too.
      await events.return?.();
      return { done: true, value: undefined };
    },
    async throw(error: unknown) {
      await events.return?.();
      throw error;
    },
  };
  return stream;
}
