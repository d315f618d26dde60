import { defaultFieldResolver, GraphQLError, GraphQLField, GraphQLFieldResolver, getNamedType, GraphQLSchema, isListType, isNonNullType, isObjectType, isUnionType, GraphQLResolveInfo } from 'graphql';
import { grants, LIMITED_KEY_MESSAGE, missingScopeMessage } from '../shared/access';
import { ErrorCode, notFoundFailure, NotFoundThing } from '../shared/errors';
import { failureError } from '../shared/graphql/errors';
import { OperationError } from '../shared/graphql/operation-error.type';
import type { Viewer } from '../shared/viewer';
import { FIELD_ACCESS, fieldAccess, FieldAccess } from './field-access';
import { SessionReach, sessionOfObject, SessionThing } from './session-reach';

interface AccessContext {
  viewer: Viewer;
  sessionReach: SessionReach;
}

type RootType = keyof typeof FIELD_ACCESS;

/** The root fields of the schema that the access table does not list. */
export function fieldsWithoutAccess(schema: GraphQLSchema): string[] {
  const missing: string[] = [];
  for (const rootType of Object.keys(FIELD_ACCESS) as RootType[]) {
    for (const name of Object.keys(schema.getType(rootType) ? rootFields(schema, rootType) : {})) {
      if (!(name in FIELD_ACCESS[rootType])) missing.push(`${rootType}.${name}`);
    }
  }
  return missing;
}

function rootFields(schema: GraphQLSchema, rootType: RootType): Record<string, GraphQLField<unknown, unknown>> {
  const type = rootType === 'Query' ? schema.getQueryType() : rootType === 'Mutation' ? schema.getMutationType() : schema.getSubscriptionType();
  return type?.getFields() ?? {};
}

/** A missing scope: nothing is resolved, so nothing is written. */
export function forbiddenScopeError(access: FieldAccess): GraphQLError {
  return new GraphQLError(missingScopeMessage(access.scope), { extensions: { code: ErrorCode.FORBIDDEN, scope: access.scope } });
}

function limitedKeyError(): GraphQLError {
  return new GraphQLError(LIMITED_KEY_MESSAGE, { extensions: { code: ErrorCode.FORBIDDEN } });
}

const THING_NAMES: Record<SessionThing, NotFoundThing> = { session: 'session', event: 'event', run: 'run', proposal: 'proposal', manifest: 'manifest' };

function argumentAt(args: Record<string, unknown>, path: string[]): unknown {
  return path.reduce<unknown>((value, key) => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined), args);
}

/**
 * Applies the access table to every root field, over every transport (HTTP, WebSocket, SSE, the
 * runtime's in-process execution): the key's scope first, then a session-limited key's reach.
 */
export function enforceFieldAccess(schema: GraphQLSchema): GraphQLSchema {
  for (const rootType of Object.keys(FIELD_ACCESS) as RootType[]) {
    for (const [name, field] of Object.entries(rootFields(schema, rootType))) {
      const access = fieldAccess(rootType, name);
      if (rootType === 'Subscription') field.subscribe = guarded(field, access, field.subscribe ?? defaultFieldResolver, true);
      else field.resolve = guarded(field, access, field.resolve ?? defaultFieldResolver, false);
    }
  }
  limitSessionFields(schema);
  return schema;
}

/**
 * A session reached from another object (a parent, a fork's source, a list of sessions) is kept
 * from a session-limited key when out of its reach: null, or left out of the list.
 */
function limitSessionFields(schema: GraphQLSchema): void {
  const roots = new Set([schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]);
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || roots.has(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      const singleRequired = isNonNullType(field.type) && !isListType(field.type.ofType);
      if (getNamedType(field.type).name !== 'Session' || singleRequired) continue;
      const resolve = field.resolve ?? defaultFieldResolver;
      field.resolve = (source, args, untypedContext, info) => {
        const context = untypedContext as AccessContext;
        const resolved: unknown = resolve(source, args, context, info);
        // A key of the whole account pays nothing here: the value goes through as it was resolved.
        return context.viewer?.reach ? Promise.resolve(resolved).then((value) => sessionsInReach(context, value)) : resolved;
      };
    }
  }
}

async function sessionsInReach(context: AccessContext, value: unknown): Promise<unknown> {
  if (value === null || value === undefined) return value;
  if (!Array.isArray(value)) return (await inReach(context, value)) ? value : null;
  const kept = await Promise.all(value.map((item) => inReach(context, item)));
  return value.filter((_item, index) => kept[index]);
}

function guarded(field: GraphQLField<unknown, unknown>, access: FieldAccess, resolve: GraphQLFieldResolver<unknown, unknown>, stream: boolean): GraphQLFieldResolver<unknown, unknown> {
  const named = getNamedType(field.type);
  const answersWithError = isUnionType(named) && named.getTypes().some((type) => type.name === 'OperationError');
  const nullable = !isNonNullType(field.type);
  const withinReach = async (source: unknown, args: Record<string, unknown>, context: AccessContext, info: GraphQLResolveInfo): Promise<unknown> => {
    const { viewer } = context;
    const rule = access.sessions;
    const argument = rule.kind === 'names' || rule.kind === 'filtered' ? (rule.path ? argumentAt(args, rule.path) : undefined) : undefined;
    if (rule.kind === 'names' || (rule.kind === 'filtered' && argument !== undefined && argument !== null)) {
      const thing = rule.kind === 'names' ? rule.thing : 'session';
      if (typeof argument !== 'string' || !(await context.sessionReach.reaches(viewer, thing, argument))) {
        const failure = notFoundFailure(THING_NAMES[thing], rule.path ?? []);
        if (answersWithError) return OperationError.from(failure);
        if (nullable) return null;
        throw failureError(failure);
      }
      if (rule.kind === 'names') return resolve(source, args, context, info);
    }
    const value = await resolve(source, args, context, info);
    if (rule.kind === 'result') return (await inReach(context, value)) ? value : null;
    return stream ? keepInReach(context, value as AsyncIterable<unknown>) : filterConnection(context, value);
  };
  return (source, args, untypedContext, info) => {
    const context = untypedContext as AccessContext;
    const { viewer } = context;
    if (!grants(viewer.scopes, access.scope)) throw forbiddenScopeError(access);
    const rule = access.sessions;
    // A key of the whole account pays one comparison: the resolver runs as it would without the table.
    if (!viewer.reach || rule.kind === 'none') return resolve(source, args, context, info);
    if (rule.kind === 'account') throw limitedKeyError();
    return withinReach(source, args, context, info);
  };
}

async function inReach(context: AccessContext, value: unknown): Promise<boolean> {
  if (value === null || value === undefined) return true;
  const sessionId = sessionOfObject(value) ?? sessionOfObject((value as { event?: unknown }).event);
  return sessionId !== null && context.sessionReach.reaches(context.viewer, 'session', sessionId);
}

/** A connection's edges in reach; its count becomes theirs, so that nothing out of reach is even counted. */
async function filterConnection(context: AccessContext, value: unknown): Promise<unknown> {
  const connection = value as { edges: { node: unknown }[]; totalCount?: unknown };
  const kept = await Promise.all(connection.edges.map((edge) => inReach(context, edge.node)));
  const edges = connection.edges.filter((_edge, index) => kept[index]);
  return { ...connection, edges, totalCount: edges.length };
}

/** A subscription's events in reach; a continuation is in reach when its predecessor is. */
function keepInReach(context: AccessContext, stream: AsyncIterable<unknown>): AsyncIterableIterator<unknown> {
  const events = stream[Symbol.asyncIterator]();
  const reaches = async (event: unknown) => {
    const predecessorId = (event as { predecessorId?: unknown }).predecessorId;
    return typeof predecessorId === 'string' ? context.sessionReach.reaches(context.viewer, 'session', predecessorId) : inReach(context, event);
  };
  const iterator: AsyncIterableIterator<unknown> = {
    [Symbol.asyncIterator]: () => iterator,
    async next() {
      for (;;) {
        const step = await events.next();
        if (step.done || (await reaches(step.value))) return step;
      }
    },
    return: () => events.return?.() ?? Promise.resolve({ done: true, value: undefined }),
    throw: (error: unknown) => events.throw?.(error) ?? Promise.reject(error),
  };
  return iterator;
}
