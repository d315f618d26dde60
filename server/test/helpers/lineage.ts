import { GraphQLTestClient } from './graphql-client';
import { PNG_1X1, uploaded } from './attachments';
import { continuation, continueSession, createSession, settleRuns } from './continuations';
import { TestServer } from './test-server';

/** A three-session lineage as people leave one: messages, an attachment, a plan, two continuations citing what came before. */
export interface BuiltLineage {
  sessionIds: [string, string, string];
  edgeIds: [string, string];
  attachmentCid: string;
  /** A word only this lineage holds, in its first and last sessions. */
  word: string;
}

async function post(client: GraphQLTestClient, sessionId: string, text: string, attachments: string[] = []): Promise<string> {
  const { postMessage } = await client.data<{ postMessage: { event?: { id: string }; message?: string } }>(
    `mutation ($s: ID!, $t: String!, $a: [String!]) { postMessage(input: { sessionId: $s, text: $t, attachments: $a }) {
      ... on PostMessageSuccess { event { id } } ... on OperationError { message } } }`,
    { s: sessionId, t: text, a: attachments },
  );
  if (!postMessage.event) throw new Error(`postMessage failed: ${postMessage.message}`);
  return postMessage.event.id;
}

/** Builds the lineage in `client`'s account; `word` should be unique to the test. */
export async function buildLineage(server: TestServer, client: GraphQLTestClient, word: string): Promise<BuiltLineage> {
  const first = await createSession(client, `Reactor notes ${word}`);
  const attachment = await uploaded(client, `diagram-${word}.png`, 'image/png', Buffer.concat([PNG_1X1, Buffer.from(word)]));
  const opening = await post(client, first, `The ${word} reactor sits in Building Zeta; see the diagram.`, [attachment.cid]);
  const decision = await post(client, first, `We decided the ${word} coolant loop runs at 40 bar.`);
  await client.data('mutation ($s: ID!) { updatePlan(input: { sessionId: $s, steps: [{ title: "Inspect the loop", status: PENDING }] }) { revision } }', { s: first });
  const source = { kind: 'SESSION_EVENTS', sessionId: first, fromEventId: opening, toEventId: decision, relevance: `where the ${word} reactor is` };
  const toSecond = await continueSession(client, continuation(first, { title: 'Second phase', sources: [source], transfer: { plan: 'CARRY' } }));
  if (!toSecond.successor) throw new Error(`continueSession failed: ${toSecond.message}`);
  const second = toSecond.successor.id;
  await settleRuns(server, second);
  await post(client, second, 'The inspection found a worn valve.');
  const toThird = await continueSession(client, continuation(second, { title: 'Third phase', reason: 'PHASE_CHANGE', sources: [{ kind: 'ATTACHMENT', cid: attachment.cid, relevance: 'the diagram' }] }));
  if (!toThird.successor) throw new Error(`continueSession failed: ${toThird.message}`);
  const third = toThird.successor.id;
  await settleRuns(server, third);
  await post(client, third, `Replace the valve before restarting the ${word} reactor.`);
  return { sessionIds: [first, second, third], edgeIds: [toSecond.edge!.id, toThird.edge!.id], attachmentCid: attachment.cid, word };
}
