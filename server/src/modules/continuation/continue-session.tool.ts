import {
  coerceInputValue,
  GraphQLInputObjectType,
  GraphQLInputType,
  GraphQLSchema,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
} from 'graphql';
import { ContinueSessionRequest, SOURCE_FIELDS, SourceKind } from './continuations';

type JsonSchema = { [key: string]: unknown };

/** Fields of ContinueSessionInput that the runtime fills in, never the model. */
const RUNTIME_FIELDS = new Set(['sessionId', 'idempotencyKey', 'initiatingEventId', 'tokenBudget', 'actor']);

const TOOL_DESCRIPTION =
  'Continue this work in a fresh successor session instead of answering here, when the conversation is no longer ' +
  'the right working context: the user changed subject, a phase ended, the task needs a different working set, old ' +
  'tool traffic crowds the context, the user asked for it, or the context is near its budget. Only between turns, ' +
  'with no tool call pending. This session stays complete and linked; the successor starts from your handoff plus ' +
  'the exact sources you cite, and answers the current message there. Calling this ends your turn here.';

function scalarSchema(name: string): JsonSchema {
  switch (name) {
    case 'Int':
      return { type: 'integer' };
    case 'Float':
      return { type: 'number' };
    case 'Boolean':
      return { type: 'boolean' };
    default:
      return { type: 'string' };
  }
}

function typeSchema(type: GraphQLInputType): JsonSchema {
  const named = isNonNullType(type) ? type.ofType : type;
  if (isListType(named)) return { type: 'array', items: typeSchema(named.ofType) };
  if (isEnumType(named)) return { type: 'string', enum: named.getValues().map((value) => value.name.toLowerCase()) };
  if (isInputObjectType(named)) return named.name === 'ContinuationSourceInput' ? sourceSchema(named) : objectSchema(named);
  if (isScalarType(named)) return scalarSchema(named.name);
  throw new Error(`No JSON Schema for ${String(named)}`);
}

function withDescription(schema: JsonSchema, description: string | null | undefined): JsonSchema {
  return description ? { ...schema, description } : schema;
}

function objectSchema(type: GraphQLInputObjectType, omit: Set<string> = new Set()): JsonSchema {
  const fields = Object.values(type.getFields()).filter((field) => !omit.has(field.name));
  return withDescription(
    {
      type: 'object',
      properties: Object.fromEntries(fields.map((field) => [field.name, withDescription(typeSchema(field.type), field.description)])),
      required: fields.filter((field) => isNonNullType(field.type)).map((field) => field.name),
      additionalProperties: false,
    },
    type.description,
  );
}

/** What each kind of source cites, for the `kind` of its shape. */
const SOURCE_KIND_DESCRIPTIONS: Record<SourceKind, string> = {
  SESSION_EVENTS: 'A range of events of a session, from fromEventId to toEventId.',
  SESSION_EVENT: 'One event of a session.',
  RESOURCE: 'A stored resource: a version of it, or one block of that version.',
  MEMORY: 'A memory entry, by path: its current content, or an exact earlier one by cid.',
  ATTACHMENT: 'A file attached to a message, by its content id.',
};

/**
 * The part of a source field's description that concerns `kind`. The input type's field
 * descriptions name the kinds they apply to ("MEMORY: …. ATTACHMENT: …"): a field shared by
 * several kinds reads, in each kind's shape, only what it means there.
 */
function sourceFieldDescription(description: string | null | undefined, kind: SourceKind): string | undefined {
  if (!description) return undefined;
  const kinds = Object.keys(SOURCE_FIELDS).join('|');
  // A new label starts the description or follows a sentence's end.
  const parts = description.split(new RegExp(`(?<=\\.)\\s+(?=(?:${kinds})(?: and (?:${kinds}))*: )`));
  const labelled = parts.map((part) => /^([A-Z_]+(?: and [A-Z_]+)*): (.*)$/s.exec(part));
  if (labelled.some((match) => !match)) return description;
  const own = labelled.find((match) => match![1].split(' and ').includes(kind))?.[2];
  return own ? own[0].toUpperCase() + own.slice(1) : description;
}

/** One shape per source kind, as the specification writes it: kind in lower case and exactly that kind's fields. */
function sourceSchema(type: GraphQLInputObjectType): JsonSchema {
  const fields = type.getFields();
  return {
    oneOf: (Object.keys(SOURCE_FIELDS) as SourceKind[]).map((kind) => {
      const { required, optional } = SOURCE_FIELDS[kind];
      const names = [...required, ...optional] as string[];
      return {
        type: 'object',
        properties: {
          kind: { type: 'string', const: kind.toLowerCase(), description: SOURCE_KIND_DESCRIPTIONS[kind] },
          relevance: withDescription(typeSchema(fields.relevance.type), fields.relevance.description),
          ...Object.fromEntries(
            names.map((name) => [name, withDescription(typeSchema(fields[name].type), sourceFieldDescription(fields[name].description, kind))]),
          ),
        },
        required: ['kind', 'relevance', ...required],
        additionalProperties: false,
      };
    }),
  };
}

/**
 * The `continue_session` tool in function-calling form, generated from the API's own
 * ContinueSessionInput, so the tool and the mutation cannot drift apart. Enum values are in lower
 * case as the specification writes them; the runtime adds the session, the idempotency key (the
 * tool call's id), the initiating message and the budget.
 */
export function continueSessionTool(schema: GraphQLSchema): JsonSchema {
  const input = schema.getType('ContinueSessionInput');
  if (!isInputObjectType(input)) throw new Error('The schema has no ContinueSessionInput');
  return {
    type: 'function',
    function: {
      name: 'continue_session',
      description: TOOL_DESCRIPTION,
      parameters: objectSchema(input, RUNTIME_FIELDS),
    },
  };
}

/** Upper-cases the enum values of a tool call's arguments, which the tool writes in lower case. */
function apiEnums(value: unknown, type: GraphQLInputType): unknown {
  const named = isNonNullType(type) ? type.ofType : type;
  if (value == null) return value;
  if (isListType(named)) return Array.isArray(value) ? value.map((item) => apiEnums(item, named.ofType)) : value;
  if (isEnumType(named)) return typeof value === 'string' ? value.toUpperCase() : value;
  if (isInputObjectType(named) && typeof value === 'object' && !Array.isArray(value)) {
    const fields = named.getFields();
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([key, field]) => [key, fields[key] ? apiEnums(field, fields[key].type) : field]),
    );
  }
  return value;
}

/**
 * A `continue_session` call's arguments as a ContinueSessionInput, checked against the API's own
 * input type exactly as the mutation's variables are; the runtime's fields are added here. Returns
 * the problems, in words a model can act on, when the arguments do not fit.
 */
export function continueSessionToolRequest(
  schema: GraphQLSchema,
  args: unknown,
  runtimeFields: { sessionId: string; idempotencyKey: string; initiatingEventId: string | null },
): { ok: true; request: ContinueSessionRequest } | { ok: false; problems: string[] } {
  const input = schema.getType('ContinueSessionInput');
  if (!isInputObjectType(input)) throw new Error('The schema has no ContinueSessionInput');
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return { ok: false, problems: ['The arguments must be a JSON object.'] };
  const modelFields = Object.fromEntries(Object.entries(args).filter(([key]) => !RUNTIME_FIELDS.has(key)));
  const problems: string[] = [];
  const request = coerceInputValue(apiEnums({ ...modelFields, ...runtimeFields }, input), input, (path, _value, error) => {
    problems.push(path.length ? `${path.join('.')}: ${error.message}` : error.message);
  }) as ContinueSessionRequest;
  return problems.length ? { ok: false, problems } : { ok: true, request };
}
