import Ajv, { ValidateFunction } from 'ajv';
import { BUNDLE_FORMAT, BundleFile } from './bundle';

/** JSON Schemas of each file's records: a bundle is read only when every record has its shape. */
const uuid = { type: 'string', pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' };
const cid = { type: 'string', pattern: '^[0-9a-f]{64}$' };
const time = { type: 'string', format: 'date-time-iso' };
const maybeTime = { anyOf: [time, { type: 'null' }] };
const maybe = (schema: object) => ({ anyOf: [schema, { type: 'null' }] });
const count = { type: 'integer', minimum: 0, maximum: 2_147_483_647 };
const text = { type: 'string' };
const record = (properties: Record<string, object>, optional: string[] = []) => ({
  type: 'object',
  properties,
  required: Object.keys(properties).filter((name) => !optional.includes(name)),
});

const schemas: Record<string, object> = {
  [BundleFile.HEADER]: record({
    format: { const: BUNDLE_FORMAT },
    version: { type: 'integer' },
    scope: { enum: ['SESSION', 'LINEAGE'] },
    rootSessionId: uuid,
    sessionIds: { type: 'array', items: uuid },
    exportedAt: time,
  }),
  [BundleFile.SESSIONS]: record({
    id: uuid,
    kind: { enum: ['ROOT', 'CHILD', 'CONTINUATION', 'FORK'] },
    status: { enum: ['ACTIVE', 'CONTINUED', 'ARCHIVED'] },
    title: { type: 'string', minLength: 1, maxLength: 200 },
    description: maybe({ type: 'string', maxLength: 2_000 }),
    createdAt: time,
    originId: uuid,
    lineageDepth: count,
    continuationStreak: count,
    parentId: maybe(uuid),
    forkedFromEventId: maybe(uuid),
    continuationApproval: { enum: ['AUTOMATIC', 'ASK'] },
    eventCount: count,
    tokenCount: count,
    lastEventHash: text,
    erasedAt: maybeTime,
  }),
  [BundleFile.EVENTS]: record({
    id: uuid,
    sessionId: uuid,
    seq: { type: 'integer', minimum: 1, maximum: 2_147_483_647 },
    kind: { enum: ['USER_MESSAGE', 'ASSISTANT_MESSAGE', 'TOOL_CALL', 'TOOL_RESULT', 'SYSTEM', 'CONTINUATION'] },
    text: maybe(text),
    data: {},
    toolCallId: maybe(text),
    tokenCount: count,
    tokenTotal: count,
    hash: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    replayOfId: maybe(uuid),
    clientMessageId: maybe(text),
    createdAt: time,
    attachmentCids: { type: 'array', items: cid },
    erasedAt: maybeTime,
  }),
  [BundleFile.EDGES]: record({
    id: uuid,
    predecessorId: uuid,
    successorId: uuid,
    reason: { enum: ['TOPIC_CHANGE', 'PHASE_CHANGE', 'CONTEXT_PRESSURE', 'USER_REQUEST', 'OTHER'] },
    actor: { enum: ['AGENT', 'USER', 'SYSTEM'] },
    initiatingEventId: uuid,
    createdAt: time,
  }),
  [BundleFile.MANIFESTS]: record(
    {
      id: uuid,
      edgeId: uuid,
      predecessorId: uuid,
      successorId: uuid,
      originId: uuid,
      initiatingEventId: uuid,
      actor: text,
      reason: text,
      handoff: { type: 'object' },
      sources: { type: 'array' },
      items: { type: 'array', items: record({ kind: text }) },
      transferredState: { type: 'object' },
      lineageBlock: text,
      context: { type: 'array' },
      compilerVersion: text,
      modelVersion: text,
      tokenBudget: { type: 'integer', minimum: 1, maximum: 2_147_483_647 },
      tokenCost: count,
      createdAt: time,
      proposal: {},
      hash: cid,
      erasedAt: maybeTime,
      outside: { type: 'array', items: count },
    },
    ['proposal'],
  ),
  [BundleFile.PLANS]: record({
    id: uuid,
    sessionId: uuid,
    revision: { type: 'integer', minimum: 1, maximum: 2_147_483_647 },
    closed: { type: 'boolean' },
    steps: { type: 'array' },
    createdAt: time,
    erasedAt: maybeTime,
  }),
  [BundleFile.RESOURCE_VERSIONS]: record({
    url: { type: 'string', minLength: 1 },
    version: { type: 'string', pattern: '^[1-9][0-9]{0,8}$' },
    cid,
    blocks: { type: 'array' },
    tokenCount: count,
    createdAt: time,
  }),
  [BundleFile.MEMORY_ENTRIES]: record({ path: { type: 'string', minLength: 1 }, cid, content: text, tokenCount: count, createdAt: time }),
  [BundleFile.ATTACHMENTS]: record({
    cid,
    name: { type: 'string', minLength: 1, maxLength: 255 },
    mediaType: { type: 'string', minLength: 1, maxLength: 255 },
    byteSize: count,
  }),
};

const ajv = new Ajv({ strict: false });
// Timestamps exactly as `Date.prototype.toISOString` writes them, which the hashes cover.
ajv.addFormat('date-time-iso', { type: 'string', validate: (value: string) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(value) && !Number.isNaN(Date.parse(value)) });
/** Compiled on first use: compiling them all is a fifth of a second that a server never importing a bundle need not spend at start. */
const validators = new Map<string, ValidateFunction>();

/** Why a record of `file` does not have its shape; null when it does. */
export function recordProblem(file: string, value: unknown): string | null {
  let validate = validators.get(file);
  if (!validate) {
    validate = ajv.compile(schemas[file]);
    validators.set(file, validate);
  }
  if (validate(value)) return null;
  const [error] = validate.errors ?? [];
  return `${error?.instancePath || 'the record'} ${error?.message ?? 'is malformed'}`;
}
