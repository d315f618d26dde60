import { ModelToolDefinition } from './agent';
import { describeAttachment, isTextMediaType } from '../modules/attachments/attachments';
import { storableText } from '../shared/text';
import { AttachmentService, attachmentReference } from '../modules/attachments/attachments.service';
import { ErrorCode } from '../shared/errors';
import { isId } from '../shared/ids';
import { EventEntity } from '../modules/conversation/event.entity';
import { LineageService } from '../modules/continuation/lineage/lineage.service';
import { ResourceService } from '../modules/resources/resources.service';
import { SearchService } from '../modules/search/search.service';
import { SearchScope } from '../modules/search/search';
import { SessionService } from '../modules/conversation/sessions.service';
import { TranscriptService } from '../modules/conversation/transcript.service';
import { Viewer } from '../shared/viewer';
import type { AgentToolName } from '../shared/agent-tools';

/** The most events one read_events call returns; the model reads longer ranges in parts. */
export const READ_EVENTS_MAX = 50;
/** Hits one search_history call returns at most (10 unless asked). */
export const SEARCH_HISTORY_MAX = 20;
/** Queries one search_history call runs at most: rephrasings of one question, merged. */
export const SEARCH_HISTORY_QUERIES = 5;
/** Reciprocal-rank fusion's constant: a hit's share of a query is 1 / (this + its rank). */
export const FUSION_RANK_OFFSET = 60;
/** Tool results are cut at this many characters, so one call cannot flood the context. */
export const TOOL_RESULT_MAX_CHARS = 16_000;
/** Text one read_attachment call shows at most: a tool result's worth, with room for the file's reference. */
export const ATTACHMENT_TEXT_MAX_CHARS = 12_000;

const id = (description: string) => ({ type: 'string', description });

/** Exact recall and delegation, offered to every model beside continue_session. */
export const RUNTIME_TOOLS: (ModelToolDefinition & { name: AgentToolName })[] = [
  {
    name: 'read_events',
    description: 'Read exact events of a session of this account by seq range (at most 50 at a time): the record, not a summary.',
    parameters: {
      type: 'object',
      properties: {
        sessionId: id('The session to read.'),
        fromSeq: { type: 'integer', description: 'First seq, from 1.' },
        toSeq: { type: 'integer', description: 'Last seq, inclusive.' },
      },
      required: ['sessionId', 'fromSeq', 'toSeq'],
      additionalProperties: false,
    },
  },
  {
    name: 'search_history',
    description:
      'Search the text of earlier events by meaning of the words: this lineage by default (every session continued from the same origin), ' +
      'one session, or the whole account. Plain words are alternatives, "quoted phrases" and -exclusions strict. ' +
      'Returns the best hits with their exact addresses (session, event id, seq) and a snippet: read_events around a hit for the record. ' +
      'People word things differently: pass several rephrasings in `queries` (names, synonyms, the likely answer\'s words) and get one merged list.',
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What to find, as a question or words.' },
        queries: {
          type: 'array',
          items: { type: 'string' },
          minItems: 1,
          maxItems: SEARCH_HISTORY_QUERIES,
          description: `Instead of query: 2 to ${SEARCH_HISTORY_QUERIES} rephrasings of what to find, searched each and merged (events found by several rank first).`,
        },
        scope: { type: 'string', enum: Object.values(SearchScope), description: 'LINEAGE (default), SESSION (this session) or ACCOUNT.' },
        first: { type: 'integer', description: `How many hits, 1 to ${SEARCH_HISTORY_MAX} (default 10).` },
      },
      additionalProperties: false,
    },
  },
  {
    name: 'read_manifest',
    description: 'Read the projection manifest a successor started from: the handoff and every source with its status.',
    parameters: {
      type: 'object',
      properties: { manifestId: id('The manifest id (named in the lineage block).') },
      required: ['manifestId'],
      additionalProperties: false,
    },
  },
  {
    name: 'read_resource',
    description: 'Read a stored resource version (the latest without a version), or one block of it.',
    parameters: {
      type: 'object',
      properties: {
        url: { type: 'string', description: 'The resource url, as a manifest or message names it.' },
        version: { type: 'string', description: 'An exact version; absent: the latest.' },
        blockId: { type: 'string', description: 'One block of the version; absent: every block.' },
      },
      required: ['url'],
      additionalProperties: false,
    },
  },
  {
    name: 'read_memory',
    description: 'Read a memory entry by path (its latest content), or an exact earlier content by cid.',
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'The memory path, e.g. notes/travel.' },
        cid: { type: 'string', description: "The cid of an exact earlier content; absent: the entry's latest content." },
      },
      required: ['path'],
      additionalProperties: false,
    },
  },
  {
    name: 'read_attachment',
    description:
      'Read a file attached to a message or cited by a manifest, by its cid: a text file as text (its start, when long), ' +
      'any other file described by its name, media type and size.',
    parameters: {
      type: 'object',
      properties: { cid: { type: 'string', description: 'The content id (sha256 hex) the message or manifest names.' } },
      required: ['cid'],
      additionalProperties: false,
    },
  },
  {
    name: 'walk_lineage',
    description: 'List the continuation lineage of a session: origin first, with each edge and its manifest.',
    parameters: {
      type: 'object',
      properties: { sessionId: id('The session whose lineage to walk; absent: this session.') },
      additionalProperties: false,
    },
  },
  {
    name: 'delegate',
    description:
      'Start delegated work in a child session; its result comes back to this conversation as the result of this call. ' +
      'A continuation must transfer pending delegated work.',
    parameters: {
      type: 'object',
      properties: { task: { type: 'string', description: 'What the child should do, self-contained.' }, title: { type: 'string' } },
      required: ['task'],
      additionalProperties: false,
    },
  },
];

export interface RecallServices {
  attachments: AttachmentService;
  sessions: SessionService;
  transcript: TranscriptService;
  lineage: LineageService;
  resources: ResourceService;
  search: SearchService;
}

/** The turn a recall tool runs for: its session, and the seq of the message it answers (null for none). */
export interface RecallReader {
  sessionId: string;
  answeringSeq: number | null;
}

/** A tool's answer for the model, and whether it is an error the model should react to. */
export interface ToolOutcome {
  content: string;
  error: boolean;
  /** The API's code for a refusal. */
  code?: ErrorCode;
}

function answer(value: unknown): ToolOutcome {
  const content = JSON.stringify(value);
  return { content: content.length > TOOL_RESULT_MAX_CHARS ? `${content.slice(0, TOOL_RESULT_MAX_CHARS)}… (cut)` : content, error: false };
}

function refusal(message: string, code: ErrorCode = ErrorCode.INVALID_INPUT): ToolOutcome {
  return { content: JSON.stringify({ error: message }), error: true, code };
}

const notFound = (message: string) => refusal(message, ErrorCode.NOT_FOUND);

/** A search_history hit as the model reads it. */
export interface HistoryHit {
  sessionId: string;
  eventId: string;
  seq: number;
  kind: string;
  score: number;
  snippet: string;
}

/**
 * The hits of several queries as one list, by reciprocal-rank fusion: each query gives a hit
 * 1 / (FUSION_RANK_OFFSET + its rank), so an event several rephrasings find ranks above one that
 * a single query ranks first, and scores of different queries (not comparable) are never mixed.
 * Each hit keeps its best score, its first snippet, and the indexes of the queries that found it.
 */
export function fuseHits(lists: HistoryHit[][]): (HistoryHit & { queries: number[] })[] {
  const fused = new Map<string, { hit: HistoryHit & { queries: number[] }; share: number; order: number }>();
  for (const [query, hits] of lists.entries()) {
    for (const [rank, hit] of hits.entries()) {
      const share = 1 / (FUSION_RANK_OFFSET + rank + 1);
      const known = fused.get(hit.eventId);
      if (!known) {
        fused.set(hit.eventId, { hit: { ...hit, queries: [query] }, share, order: fused.size });
        continue;
      }
      known.share += share;
      known.hit.queries.push(query);
      known.hit.score = Math.max(known.hit.score, hit.score);
    }
  }
  return [...fused.values()].sort((a, b) => b.share - a.share || a.order - b.order).map((entry) => entry.hit);
}

function eventLine(event: EventEntity) {
  return { seq: event.seq, id: event.id, kind: event.kind, text: event.text, toolCallId: event.toolCallId, replayOf: event.replayOfId };
}

/** The read-only recall tools, run under the account of the session whose run calls them. */
export class RecallTools {
  constructor(private readonly services: RecallServices) {}

  /**
   * Runs a recall tool for a turn of session `reader.sessionId` answering the message at
   * `reader.answeringSeq`; null when `name` is not one of them.
   */
  async run(viewer: Viewer, reader: RecallReader, name: string, args: Record<string, unknown>): Promise<ToolOutcome | null> {
    const sessionId = reader.sessionId;
    switch (name) {
      case 'read_events':
        return this.readEvents(viewer, sessionId, args);
      case 'search_history':
        return this.searchHistory(viewer, reader, args);
      case 'read_manifest':
        return this.readManifest(viewer, args);
      case 'read_resource':
        return this.readResource(viewer, args);
      case 'read_memory':
        return this.readMemory(viewer, args);
      case 'read_attachment':
        return this.readAttachment(viewer, args);
      case 'walk_lineage':
        // An empty id is no id: the model meant this session.
        return this.walkLineage(viewer, typeof args.sessionId === 'string' && args.sessionId !== '' ? args.sessionId : sessionId);
      default:
        return null;
    }
  }

  private async searchHistory(viewer: Viewer, reader: RecallReader, args: Record<string, unknown>): Promise<ToolOutcome> {
    const { query, queries, scope, first } = args;
    const asked = queries === undefined ? [query] : queries;
    if (!Array.isArray(asked) || asked.length < 1 || asked.length > SEARCH_HISTORY_QUERIES || asked.some((one) => typeof one !== 'string')) {
      return refusal(`search_history needs a query (string), or queries (1 to ${SEARCH_HISTORY_QUERIES} strings).`);
    }
    if (scope !== undefined && !Object.values(SearchScope).includes(scope as SearchScope)) {
      return refusal(`scope must be one of ${Object.values(SearchScope).join(', ')}.`);
    }
    if (first !== undefined && (!Number.isInteger(first) || (first as number) < 1 || (first as number) > SEARCH_HISTORY_MAX)) {
      return refusal(`first must be an integer from 1 to ${SEARCH_HISTORY_MAX}.`);
    }
    const pages: { totalCount: number; hits: HistoryHit[] }[] = [];
    for (const one of asked as string[]) {
      const found = await this.services.search.searchEvents(viewer, {
        query: one,
        sessionId: reader.sessionId,
        scope: (scope as SearchScope | undefined) ?? SearchScope.LINEAGE,
        first: (first as number | undefined) ?? 10,
        // The request being answered would find itself first.
        excludeFrom: reader.answeringSeq === null ? null : { sessionId: reader.sessionId, seq: reader.answeringSeq },
      });
      if (!found.ok) return refusal(asked.length > 1 ? `"${one}": ${found.error.message}` : found.error.message, found.error.code);
      pages.push({
        totalCount: await found.value.totalCount(),
        hits: found.value.hits.map(({ event, score, snippet }) => ({
          sessionId: event.sessionId,
          eventId: event.id,
          seq: event.seq,
          kind: event.kind,
          score: Number(score.toFixed(4)),
          snippet,
        })),
      });
    }
    if (queries === undefined) return answer(pages[0]);
    return answer({
      queries: (asked as string[]).map((one, index) => ({ query: one, totalCount: pages[index].totalCount })),
      hits: fuseHits(pages.map((page) => page.hits)).slice(0, (first as number | undefined) ?? 10),
    });
  }

  private async readEvents(viewer: Viewer, readerId: string, args: Record<string, unknown>): Promise<ToolOutcome> {
    const { sessionId, fromSeq, toSeq } = args;
    if (typeof sessionId !== 'string' || !Number.isInteger(fromSeq) || !Number.isInteger(toSeq)) {
      return refusal('read_events needs sessionId (string), fromSeq and toSeq (integers).');
    }
    const session = await this.services.sessions.findSession(viewer, sessionId);
    if (!session) return notFound(`No session ${sessionId} in this account.`);
    const from = Math.max(1, fromSeq as number);
    const to = Math.min(toSeq as number, from + READ_EVENTS_MAX - 1, session.eventCount);
    const page = await this.services.transcript.eventsPage(session, { fromSeq: from, toSeq: to });
    if (!page.ok) return refusal(page.error.message, page.error.code);
    // Reading inside a source the successor's projection left out is a recall of that source.
    await this.services.lineage.recordOverlappingRecall(viewer, readerId, { sessionId, fromSeq: from, toSeq: to });
    return answer({ sessionId, eventCount: session.eventCount, events: page.value.events.map(eventLine) });
  }

  private async readManifest(viewer: Viewer, args: Record<string, unknown>): Promise<ToolOutcome> {
    const manifestId = args.manifestId;
    if (typeof manifestId !== 'string') return refusal('read_manifest needs a manifestId (string).');
    if (!isId(manifestId)) return refusal(`"${manifestId}" is not a manifest id: manifest ids are UUIDs, as walk_lineage and the lineage block name them.`);
    const [manifest] = await this.services.lineage.manifestsByIds(viewer.accountId, [manifestId]);
    if (!manifest) return notFound(`No manifest ${manifestId} in this account.`);
    return answer({
      id: manifest.id,
      predecessorId: manifest.predecessorId,
      successorId: manifest.successorId,
      reason: manifest.reason,
      handoff: manifest.handoff,
      items: manifest.items,
      transferredState: manifest.transferredState,
      tokenBudget: manifest.tokenBudget,
      tokenCost: manifest.tokenCost,
    });
  }

  private async readResource(viewer: Viewer, args: Record<string, unknown>): Promise<ToolOutcome> {
    if (typeof args.url !== 'string') return refusal('read_resource needs a url.');
    const resource = await this.services.resources.findResource(viewer, args.url);
    if (!resource) return notFound(`No resource at ${args.url} in this account.`);
    if (resource.revokedAt) return notFound(`The resource at ${args.url} was revoked: it can no longer be read.`);
    const version =
      typeof args.version === 'string'
        ? await this.services.resources.findResourceVersion(viewer, args.url, args.version)
        : await this.services.resources.latestVersion(resource);
    if (!version) return notFound(`No version ${String(args.version)} of ${args.url}.`);
    const blocks = typeof args.blockId === 'string' ? version.blocks.filter((block) => block.id === args.blockId) : version.blocks;
    if (blocks.length === 0) return notFound(`No block ${String(args.blockId)} in version ${version.version} of ${args.url}.`);
    return answer({ url: version.url, version: version.version, cid: version.cid, blocks });
  }

  private async readMemory(viewer: Viewer, args: Record<string, unknown>): Promise<ToolOutcome> {
    if (typeof args.path !== 'string') return refusal('read_memory needs a path.');
    const entry = await this.services.resources.findMemory(viewer, args.path, typeof args.cid === 'string' ? args.cid : null);
    if (!entry) return notFound(`No memory entry at ${args.path}${typeof args.cid === 'string' ? ` with cid ${args.cid}` : ''}.`);
    return answer({ path: args.path, cid: entry.cid, content: entry.content });
  }

  private async readAttachment(viewer: Viewer, args: Record<string, unknown>): Promise<ToolOutcome> {
    if (typeof args.cid !== 'string') return refusal('read_attachment needs a cid.');
    const attachment = await this.services.attachments.find(viewer, args.cid);
    if (!attachment) return notFound(`No attachment ${args.cid} in this account.`);
    const reference = attachmentReference(attachment);
    if (!isTextMediaType(attachment.mediaType)) {
      return answer({ ...reference, description: `${describeAttachment(reference)}: not text, so its bytes are not shown here.` });
    }
    // A character takes at most 4 bytes in UTF-8: this reads enough for the most text shown, and no more.
    const start = await this.services.attachments.start(attachment, ATTACHMENT_TEXT_MAX_CHARS * 4);
    const decoded = storableText(start.toString('utf8'));
    const text = decoded.slice(0, ATTACHMENT_TEXT_MAX_CHARS);
    return answer({ ...reference, text, complete: start.length === attachment.byteSize && text.length === decoded.length });
  }

  private async walkLineage(viewer: Viewer, sessionId: string): Promise<ToolOutcome> {
    const session = await this.services.sessions.findSession(viewer, sessionId);
    if (!session) return notFound(`No session ${sessionId} in this account.`);
    const path = await this.services.lineage.lineage(viewer, session);
    const edges = await this.services.lineage.edgesBySuccessorIds(viewer.accountId, path.map((node) => node.id));
    const edgeIds = edges.flatMap((edge) => (edge ? [edge.id] : []));
    const manifests = edgeIds.length ? await this.services.lineage.manifestsByEdgeIds(viewer.accountId, edgeIds) : [];
    const manifestIdByEdge = new Map(manifests.flatMap((manifest) => (manifest ? [[manifest.edgeId, manifest.id]] : [])));
    return answer(
      path.map((node, index) => ({
        sessionId: node.id,
        title: node.title,
        status: node.status,
        eventCount: node.eventCount,
        continuedFrom: edges[index]
          ? { edgeId: edges[index]!.id, reason: edges[index]!.reason, manifestId: manifestIdByEdge.get(edges[index]!.id) ?? null }
          : null,
      })),
    );
  }
}
