import { randomUUID } from 'node:crypto';
import { Conversation, firstWords } from './conversation';

type JsonSchema = Record<string, unknown>;

/**
 * How a forced draft goes wrong, as models' drafts do: a required field left out, a source citing
 * an event that does not exist, or JSON cut off in the middle.
 */
export type DraftFailure = 'missing-required' | 'unknown-event-id' | 'malformed-json';

/**
 * A JSON value for `schema` written the way a model fills in a forced call: every required field,
 * texts taken from the conversation (the latest user message as the request, the first as the
 * subject), enum values the conversation names, ids only where the messages showed them under
 * their label, and only those `oneOf` shapes it can fill with what it saw.
 */
export function draftValue(schema: JsonSchema, conversation: Conversation): unknown {
  return valueFor(schema, conversation, '');
}

/** `draft` (from `draftValue`) spoiled by `failure`, as the JSON text the model writes. */
export function spoiledDraft(draft: unknown, failure: DraftFailure): string {
  const text = JSON.stringify(draft);
  if (failure === 'malformed-json') return text.slice(0, Math.max(1, Math.floor(text.length * 0.6)));
  if (typeof draft !== 'object' || draft === null || Array.isArray(draft)) return text;
  const copy = structuredClone(draft) as Record<string, unknown>;
  if (failure === 'unknown-event-id' && Array.isArray(copy.sources)) {
    const sessionId = findString(copy, 'sessionId') ?? randomUUID();
    copy.sources = [
      ...copy.sources,
      { kind: 'session_event', relevance: 'The exchange this request continues.', sessionId, eventId: randomUUID() },
    ];
    return JSON.stringify(copy);
  }
  // Leave out the first required part that has parts of its own (a handoff), else the first key.
  const key = Object.keys(copy).find((name) => typeof copy[name] === 'object' && copy[name] !== null && !Array.isArray(copy[name])) ?? Object.keys(copy)[0];
  if (key !== undefined) delete copy[key];
  return JSON.stringify(copy);
}

function findString(value: unknown, key: string): string | undefined {
  if (Array.isArray(value)) return value.map((item) => findString(item, key)).find((found) => found !== undefined);
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  if (typeof record[key] === 'string') return record[key] as string;
  return Object.values(record).map((item) => findString(item, key)).find((found) => found !== undefined);
}

/** Optional fields a model drafting a handoff fills in anyway. */
const FILLED_WHEN_OPTIONAL = new Set(['nextActions', 'establishedFacts']);

function valueFor(schema: JsonSchema, conversation: Conversation, name: string): unknown {
  const variants = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
  if (Array.isArray(variants)) return valueFor(variants.find((variant) => canFill(variant, conversation)) ?? variants[0], conversation, name);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return mentionedValue(schema.enum, conversation);
  const type = Array.isArray(schema.type) ? schema.type.find((entry) => entry !== 'null') : schema.type;
  switch (type) {
    case 'object':
      return objectValue(schema, conversation);
    case 'array':
      return arrayValue(schema, conversation, name);
    case 'integer':
    case 'number':
      return numberValue(schema);
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return fitLength(textFor(name, conversation), schema);
  }
}

function objectValue(schema: JsonSchema, conversation: Conversation): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const value: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(properties)) {
    if (required.has(key) || FILLED_WHEN_OPTIONAL.has(key)) value[key] = valueFor(property, conversation, key);
  }
  return value;
}

function arrayValue(schema: JsonSchema, conversation: Conversation, name: string): unknown[] {
  const items = (schema.items ?? {}) as JsonSchema;
  const variants = (items.oneOf ?? items.anyOf) as JsonSchema[] | undefined;
  const minimum = typeof schema.minItems === 'number' ? schema.minItems : 0;
  if (Array.isArray(variants) || items.type === 'object') {
    // Sources: cite what the messages showed, or nothing rather than something made up.
    const fillable = (Array.isArray(variants) ? variants : [items]).find((variant) => canFill(variant, conversation));
    if (fillable) return [valueFor(fillable, conversation, name)];
    return Array.from({ length: minimum }, () => valueFor(items, conversation, name));
  }
  return Array.from({ length: Math.max(1, minimum) }, () => valueFor(items, conversation, singular(name)));
}

function singular(name: string): string {
  return name.endsWith('s') ? name.slice(0, -1) : name;
}

function numberValue(schema: JsonSchema): number {
  const minimum = typeof schema.minimum === 'number' ? schema.minimum : 1;
  const maximum = typeof schema.maximum === 'number' ? schema.maximum : minimum;
  return schema.type === 'integer' ? Math.ceil(Math.min(minimum, maximum)) : Math.min(minimum, maximum);
}

/** The enum value the conversation mentions last ("reason context_pressure"), else the first. */
function mentionedValue(values: unknown[], conversation: Conversation): unknown {
  const text = conversation.allText.toLowerCase();
  let best: { value: unknown; at: number } = { value: values[0], at: -1 };
  for (const value of values) {
    if (typeof value !== 'string') continue;
    const spellings = [value.toLowerCase(), value.toLowerCase().replace(/_/g, ' ')];
    const at = Math.max(...spellings.map((spelling) => text.lastIndexOf(spelling)));
    if (at > best.at) best = { value, at };
  }
  return best.value;
}

/** Whether every required field of `schema` can be filled without making up an id or an address. */
function canFill(schema: JsonSchema, conversation: Conversation): boolean {
  const required = (schema.required as string[] | undefined) ?? [];
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  return required.every((key) => {
    const property = properties[key] ?? {};
    if ('const' in property || Array.isArray(property.enum)) return true;
    if (/sessionid$/i.test(key)) return conversation.sessionIds.length > 0;
    if (/^(from|to)eventid$/i.test(key)) return conversation.eventIds.length > 1;
    if (/eventid$/i.test(key)) return conversation.eventIds.length > 0;
    return !/(^url$|^path$|^cid$|id$)/i.test(key);
  });
}

/** The text a model writes into a field, by what the field is called. */
function textFor(name: string, conversation: Conversation): string {
  const request = conversation.lastUserText.trim() || 'Carry on with the work.';
  const subject = firstWords(conversation.firstUserText || request, 10);
  if (/sessionid$/i.test(name)) return conversation.sessionIds[conversation.sessionIds.length - 1] ?? '';
  if (/^toeventid$/i.test(name)) return conversation.eventIds[conversation.eventIds.length - 1] ?? '';
  if (/eventid$/i.test(name)) return conversation.eventIds[0] ?? '';
  if (/title/i.test(name)) return firstWords(request, 8).replace(/[.?!…]+$/, '') || 'Continued work';
  if (/purpose/i.test(name)) return `Carry on the work begun with "${subject}" and answer the latest request.`;
  if (/request|query|question|task|prompt/i.test(name)) return request;
  if (/relevance|reason|why/i.test(name)) return 'The exchange the current request builds on.';
  if (/nextaction/i.test(name)) return `Answer: ${firstWords(request, 12)}`;
  if (/fact/i.test(name)) return `The conversation so far was about "${subject}".`;
  return firstWords(request, 12);
}

function fitLength(text: string, schema: JsonSchema): string {
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  return text.length > max ? text.slice(0, max) : text;
}
