import { randomUUID } from 'node:crypto';
import { GraphQLTestClient } from './graphql-client';
import { TestServer } from './test-server';
import type { Topics } from '../../src/api/pubsub';

export const CONTINUE = `mutation ($input: ContinueSessionInput!) { continueSession(input: $input) {
  __typename
  ... on ContinueSessionSuccess { replayed edge { id reason actor } successor { id kind status title } run { id status kind } }
  ... on OperationError { code message details { path message } currentContinuation { id } }
} }`;

export type ContinueResult = {
  __typename: 'ContinueSessionSuccess' | 'OperationError';
  replayed?: boolean;
  edge?: { id: string; reason: string; actor: string };
  successor?: { id: string; kind: string; status: string; title: string };
  run?: { id: string; status: string; kind: string };
  code?: string;
  message?: string;
  details?: { path: string[]; message: string }[];
};

export async function createSession(client: GraphQLTestClient, title = 'origin'): Promise<string> {
  const { createSession } = await client.data<{ createSession: { id: string } }>(
    'mutation ($title: String!) { createSession(input: { title: $title }) { id } }',
    { title },
  );
  return createSession.id;
}

export async function postMessage(client: GraphQLTestClient, sessionId: string, text: string): Promise<string> {
  const { postMessage } = await client.data<{ postMessage: { event?: { id: string }; code?: string; message?: string } }>(
    `mutation ($s: ID!, $t: String!) { postMessage(input: { sessionId: $s, text: $t }) {
      ... on PostMessageSuccess { event { id } } ... on OperationError { code message } } }`,
    { s: sessionId, t: text },
  );
  if (!postMessage.event) throw new Error(`postMessage failed: ${postMessage.code} ${postMessage.message}`);
  return postMessage.event.id;
}

/** A well-formed request continuing `sessionId`; override any part. */
export function continuation(sessionId: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    sessionId,
    idempotencyKey: randomUUID(),
    reason: 'TOPIC_CHANGE',
    title: 'Successor',
    handoff: { purpose: 'Carry on with the new topic', currentRequest: 'Write the plan', decisions: ['Use PostgreSQL'] },
    sources: [],
    ...overrides,
  };
}

export async function continueSession(client: GraphQLTestClient, input: Record<string, unknown>): Promise<ContinueResult> {
  return (await client.data<{ continueSession: ContinueResult }>(CONTINUE, { input })).continueSession;
}

/** Stands in for the agent runtime, which settles a successor's initial run: the next continuation needs a turn boundary. */
export async function settleRuns(server: TestServer, sessionId: string): Promise<void> {
  await server.app.database.dataSource.query(`UPDATE runs SET status = 'SUCCEEDED' WHERE session_id = $1`, [sessionId]);
}

/** Waits until the server has a listener on a pub/sub topic, so that a subscription started by a client is in place. */
export async function subscribed(server: TestServer, topic: keyof Topics, id: string) {
  const deadline = Date.now() + 5000;
  while (server.app.subscriptions.listenerCount(topic, id) === 0) {
    if (Date.now() > deadline) throw new Error(`No subscriber on ${topic}:${id}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
