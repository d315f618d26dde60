import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { EventKind, eventHash, eventTokenCount } from '../server/src/modules/conversation/transcript';
import { inTwoRoundTrips } from './database';
import { GraphQLClient } from './graphql';
import { chainMessages, insertRootSessions, RootSessionRows } from './transcript';
import { newRowId } from '../server/src/shared/ids';
import { sha256 } from '../server/src/shared/sha256';

/** A root session at a turn boundary, with its account and the ids of its user messages in order. */
export interface Predecessor {
  id: string;
  accountId: string;
  messageIds: string[];
}

const MESSAGES = [
  'Our agent loses decisions once a chat gets long. Look at how it summarises history today and list what goes missing.',
  'Good list. The storage question is settled: invoices stay in PostgreSQL and receipts move to object storage.',
  'Now the rollout: write a step-by-step plan for moving receipts, with a rollback for each step.',
];

const HANDOFF = {
  purpose: 'Plan the rollout of moving receipts to object storage, now that the storage decision is made.',
  currentRequest: 'Write a step-by-step rollout plan for moving receipts, with a rollback for each step.',
  establishedFacts: [
    'Invoices stay in PostgreSQL.',
    'Receipts are written once and read rarely.',
    'About 40 million receipts exist today.',
  ],
  decisions: ['Receipts move to object storage.', 'No dual writes after the cut-over.'],
  openQuestions: ['Which retention policy applies to the receipts bucket?', 'Who signs off the cut-over date?'],
  nextActions: ['Draft the plan.', 'List a rollback for each step.', 'Estimate the copy time.'],
  cautions: ['Do not delete receipts from PostgreSQL before the copy is verified.'],
};

const TITLE = 'Receipts rollout';

const CONTINUE = `mutation ($input: ContinueSessionInput!) { continueSession(input: $input) {
  __typename
  ... on ContinueSessionSuccess { edge { id } successor { id } run { id status } }
  ... on OperationError { code message }
} }`;

const MESSAGE_TOKENS = MESSAGES.map((text) => eventTokenCount(text, null));
const PREPARE_BATCH = 500;

/**
 * Root sessions holding MESSAGES as user messages, written in bulk with the server's own hash and
 * token functions: the rows posting the messages would write, in seconds instead of minutes.
 */
export async function preparePredecessors(pool: Pool, accountId: string, count: number): Promise<Predecessor[]> {
  const predecessors: Predecessor[] = [];
  for (let offset = 0; offset < count; offset += PREPARE_BATCH) {
    const sessions: RootSessionRows[] = [];
    for (let i = offset; i < Math.min(count, offset + PREPARE_BATCH); i++) {
      const sessionId = newRowId();
      const startedAt = Date.now();
      const rows = chainMessages(
        sessionId,
        MESSAGES.map((text, index) => ({
          kind: EventKind.USER_MESSAGE,
          text,
          tokenCount: MESSAGE_TOKENS[index],
          createdAt: new Date(startedAt + index + 1),
        })),
      );
      sessions.push({ id: sessionId, title: 'Long-running design chat', createdAt: new Date(startedAt).toISOString(), rows });
      predecessors.push({ id: sessionId, accountId, messageIds: rows.map((row) => row.id) });
    }
    await insertRootSessions(pool, accountId, sessions);
  }
  return predecessors;
}

/** Predecessors spread evenly over the accounts, consecutive ones in different accounts. */
export async function spreadPredecessors(pool: Pool, accountIds: string[], count: number): Promise<Predecessor[]> {
  const perAccount = Math.ceil(count / accountIds.length);
  const byAccount = await Promise.all(accountIds.map((accountId) => preparePredecessors(pool, accountId, perAccount)));
  return Array.from({ length: count }, (_, index) => byAccount[index % accountIds.length][Math.floor(index / accountIds.length)]);
}

/** One continueSession over HTTP: a full handoff citing two event ranges of the predecessor; the successor's id. */
export async function continueOverHttp(client: GraphQLClient, predecessor: Predecessor): Promise<string> {
  const [first, second, third] = predecessor.messageIds;
  const { continueSession } = await client.data<{
    continueSession: { __typename: string; successor?: { id: string }; code?: string; message?: string };
  }>(
    CONTINUE,
    {
      input: {
        sessionId: predecessor.id,
        idempotencyKey: randomUUID(),
        reason: 'PHASE_CHANGE',
        title: TITLE,
        handoff: HANDOFF,
        sources: [
          {
            kind: 'SESSION_EVENTS',
            relevance: 'What summaries lost, and the storage decision this plan builds on.',
            sessionId: predecessor.id,
            fromEventId: first,
            toEventId: second,
          },
          {
            kind: 'SESSION_EVENTS',
            relevance: 'The request that starts the rollout phase.',
            sessionId: predecessor.id,
            fromEventId: second,
            toEventId: third,
          },
        ],
      },
    },
  );
  if (continueSession.__typename !== 'ContinueSessionSuccess') {
    throw new Error(`continueSession failed: ${continueSession.code} ${continueSession.message}`);
  }
  return continueSession.successor!.id;
}

/** The JSON columns of one manifest the server wrote, reused verbatim by the raw transaction. */
export interface ManifestTemplate {
  handoff: string;
  sources: string;
  items: string;
  transferredState: string;
  lineageBlock: string;
  context: string;
  tokenBudget: number;
  tokenCost: number;
  /** Characters of JSON and text the row carries: what the report shows as its size. */
  size: number;
}

export async function readManifestTemplate(pool: Pool): Promise<ManifestTemplate> {
  const { rows } = await pool.query(
    `SELECT handoff::text, sources::text, items::text, transferred_state::text, lineage_block, context::text, token_budget, token_cost
     FROM projection_manifests ORDER BY created_at DESC LIMIT 1`,
  );
  if (!rows[0]) throw new Error('The server wrote no manifest to size the raw transaction on');
  const row = rows[0];
  const template = {
    handoff: row.handoff,
    sources: row.sources,
    items: row.items,
    transferredState: row.transferred_state,
    lineageBlock: row.lineage_block,
    context: row.context,
    tokenBudget: row.token_budget,
    tokenCost: row.token_cost,
  };
  const size = [template.handoff, template.sources, template.items, template.transferredState, template.lineageBlock, template.context]
    .map((part) => part.length)
    .reduce((a, b) => a + b, 0);
  return { ...template, size };
}

/** The server tokenizes; a raw writer need not, so it estimates (about four characters a token). */
const estimateTokens = (text: string, data: unknown) => Math.ceil((text.length + (data == null ? 0 : JSON.stringify(data).length)) / 4);

interface EventDraft {
  kind: EventKind;
  text: string;
  data: object | null;
  replayOfId: string | null;
}

interface EventRow extends EventDraft {
  id: string;
  sessionId: string;
  seq: number;
  tokenCount: number;
  tokenTotal: number;
  hash: string;
}

/** Extends a session's hash chain and running totals (`head`, updated in place) by `drafts`. */
function append(sessionId: string, head: { seq: number; tokens: number; hash: string }, drafts: EventDraft[], createdAt: Date): EventRow[] {
  return drafts.map((draft) => {
    head.seq += 1;
    const tokenCount = estimateTokens(draft.text, draft.data);
    head.tokens += tokenCount;
    head.hash = eventHash(head.hash, { sessionId, seq: head.seq, toolCallId: null, createdAt, ...draft });
    return { id: newRowId(), sessionId, seq: head.seq, tokenCount, tokenTotal: head.tokens, hash: head.hash, ...draft };
  });
}

// The predecessor and its latest user message in one round trip, the row locked as the server locks it.
const LOCK_PREDECESSOR = `
  SELECT session.title, session.event_count, session.token_count, session.last_event_hash, session.origin_id, session.lineage_depth,
         latest.id AS message_id, latest.text AS message_text
  FROM sessions session
  CROSS JOIN LATERAL (
    SELECT id, text FROM events
    WHERE session_id = session.id AND kind = 'USER_MESSAGE'
    ORDER BY seq DESC LIMIT 1
  ) latest
  WHERE session.id = $1 AND session.account_id = $2
  FOR UPDATE OF session`;

/** The predecessor as LOCK_PREDECESSOR reads it. */
interface PredecessorRow {
  id: string;
  title: string;
  event_count: number;
  token_count: number;
  last_event_hash: string;
  origin_id: string;
  lineage_depth: number;
  message_id: string;
  message_text: string;
}

/** The events one continuation appends to both sessions, from the locked predecessor's head. */
function continuationRows(predecessor: PredecessorRow) {
  const now = new Date();
  const ids = { successorId: newRowId(), edgeId: newRowId(), manifestId: newRowId() };
  const reason = 'PHASE_CHANGE';
  const successorHead = { seq: 0, tokens: 0, hash: '' };
  const successorEvents = append(
    ids.successorId,
    successorHead,
    [
      {
        kind: EventKind.CONTINUATION,
        text: `Continued from "${predecessor.title}"`,
        data: { role: 'banner', edgeId: ids.edgeId, manifestId: ids.manifestId, predecessorId: predecessor.id, predecessorTitle: predecessor.title, reason, actor: 'AGENT' },
        replayOfId: null,
      },
      { kind: EventKind.USER_MESSAGE, text: predecessor.message_text, data: null, replayOfId: predecessor.message_id },
    ],
    now,
  );
  const predecessorHead = { seq: predecessor.event_count, tokens: predecessor.token_count, hash: predecessor.last_event_hash };
  const card = append(
    predecessor.id,
    predecessorHead,
    [
      {
        kind: EventKind.CONTINUATION,
        text: `Continued in "${TITLE}"`,
        data: {
          role: 'transition_card',
          edgeId: ids.edgeId,
          manifestId: ids.manifestId,
          successorId: ids.successorId,
          successorTitle: TITLE,
          reason,
          actor: 'AGENT',
          carried: 'the current request, 3 established facts, 2 decisions, 2 open questions, 3 next actions, 1 caution, 2 sources',
          includedSources: 2,
          omittedSources: 0,
        },
        replayOfId: null,
      },
    ],
    now,
  );
  return { ...ids, now, reason, successorHead, predecessorHead, successorEvents, events: [...successorEvents, ...card] };
}

/** The statements after the lock, in the order the server writes them. */
function continuationStatements(accountId: string, predecessor: PredecessorRow, manifest: ManifestTemplate): [string, unknown[]][] {
  const rows = continuationRows(predecessor);
  const { successorId, edgeId, manifestId, now, reason, successorHead, predecessorHead, events } = rows;
  const columns = 12;
  const placeholders = events.map((_, row) => `(${Array.from({ length: columns }, (_, column) => `$${row * columns + column + 1}`).join(', ')})`);
  const eventValues = events.flatMap((event) => [
    event.id,
    event.sessionId,
    accountId,
    event.seq,
    event.kind,
    event.text,
    event.data == null ? null : JSON.stringify(event.data),
    event.tokenCount,
    event.tokenTotal,
    event.hash,
    event.replayOfId,
    now,
  ]);
  const manifestHash = sha256(manifest.handoff + manifest.sources + manifest.items + manifest.transferredState + manifest.lineageBlock + manifest.context);
  return [
    [
      `INSERT INTO sessions (id, account_id, kind, status, title, created_at, event_count, token_count, last_event_hash,
                             origin_id, lineage_depth, continuation_streak)
       VALUES ($1, $2, 'CONTINUATION', 'ACTIVE', $3, $4, $5, $6, $7, $8, $9, 1)`,
      [successorId, accountId, TITLE, now, successorHead.seq, successorHead.tokens, successorHead.hash, predecessor.origin_id, predecessor.lineage_depth + 1],
    ],
    [
      `INSERT INTO events (id, session_id, account_id, seq, kind, text, data, token_count, token_total, hash, replay_of_id, created_at)
       VALUES ${placeholders.join(', ')}`,
      eventValues,
    ],
    [
      `UPDATE sessions SET status = 'CONTINUED', event_count = $2, token_count = $3, last_event_hash = $4 WHERE id = $1`,
      [predecessor.id, predecessorHead.seq, predecessorHead.tokens, predecessorHead.hash],
    ],
    [
      `INSERT INTO continuation_edges (id, account_id, predecessor_id, predecessor_depth, successor_id, successor_depth, reason, actor,
                                       initiating_event_id, idempotency_key, request_fingerprint, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'AGENT', $8, $9, $10, $11)`,
      [
        edgeId,
        accountId,
        predecessor.id,
        predecessor.lineage_depth,
        successorId,
        predecessor.lineage_depth + 1,
        reason,
        predecessor.message_id,
        randomUUID(),
        sha256(`${predecessor.id}:${reason}:${TITLE}`),
        now,
      ],
    ],
    [
      `INSERT INTO projection_manifests (id, account_id, edge_id, predecessor_id, successor_id, origin_id, initiating_event_id, actor, reason,
                                         handoff, sources, items, transferred_state, lineage_block, context, compiler_version, model_version,
                                         token_budget, token_cost, hash, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'AGENT', $8, $9, $10, $11, $12, $13, $14, 'projection-compiler/2', 'o200k_base', $15, $16, $17, $18)`,
      [
        manifestId,
        accountId,
        edgeId,
        predecessor.id,
        successorId,
        predecessor.origin_id,
        predecessor.message_id,
        reason,
        manifest.handoff,
        manifest.sources,
        manifest.items,
        manifest.transferredState,
        manifest.lineageBlock,
        manifest.context,
        manifest.tokenBudget,
        manifest.tokenCost,
        manifestHash,
        now,
      ],
    ],
    [
      `INSERT INTO runs (id, account_id, session_id, kind, status, trigger_event_id, created_at, updated_at)
       VALUES ($1, $2, $3, 'TURN', 'QUEUED', $4, $5, $5)`,
      [newRowId(), accountId, successorId, rows.successorEvents[1].id, now],
    ],
  ];
}

/**
 * The rows one continuation writes, in one transaction with no checks and no tokenizer, in two
 * round trips (`inTwoRoundTrips`): the least any implementation must send to PostgreSQL, and wait
 * for, for the same result. Returns the number of statements sent.
 */
export function continueInSql(pool: Pool, { id: predecessorId, accountId }: Predecessor, manifest: ManifestTemplate): Promise<number> {
  return inTwoRoundTrips(pool, [LOCK_PREDECESSOR, [predecessorId, accountId]], (rows) => {
    const predecessor = rows[0] as unknown as PredecessorRow | undefined;
    if (!predecessor) throw new Error(`No predecessor ${predecessorId} in account ${accountId}`);
    return continuationStatements(accountId, { ...predecessor, id: predecessorId }, manifest);
  });
}
