import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  GraphQLField,
  GraphQLInputObjectType,
  GraphQLInputType,
  GraphQLNamedType,
  GraphQLSchema,
  buildSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  isUnionType,
} from 'graphql';
import type { RunningApp } from '../../src/app';

/** The published schema, as a third party reads it. */
export function publishedSchema(): GraphQLSchema {
  return buildSchema(readFileSync(path.join(__dirname, '..', '..', '..', 'schema.graphql'), 'utf8'));
}

export type OperationKind = 'query' | 'mutation' | 'subscription';

export interface RootField {
  kind: OperationKind;
  field: GraphQLField<unknown, unknown>;
}

/** Every field of Query, Mutation and Subscription. */
export function rootFields(schema: GraphQLSchema): RootField[] {
  const roots: [OperationKind, ReturnType<GraphQLSchema['getQueryType']>][] = [
    ['query', schema.getQueryType()],
    ['mutation', schema.getMutationType()],
    ['subscription', schema.getSubscriptionType()],
  ];
  return roots.flatMap(([kind, type]) => (type ? Object.values(type.getFields()).map((field) => ({ kind, field })) : []));
}

/** Whether a field answers expected failures with the `OperationError` member of its payload union. */
export function answersWithOperationError(field: GraphQLField<unknown, unknown>): boolean {
  const type = getNamedType(field.type);
  return isUnionType(type) && type.getTypes().some((member) => member.name === 'OperationError');
}

function selectionFor(type: GraphQLNamedType): string {
  if (isUnionType(type)) {
    const error = type.getTypes().some((member) => member.name === 'OperationError');
    return `{ __typename ${error ? '... on OperationError { code message details { path message } }' : ''} }`;
  }
  return isObjectType(type) || isInterfaceType(type) ? '{ __typename }' : '';
}

/** An operation calling one root field with every argument passed as a variable of the same name. */
export function operationFor({ kind, field }: RootField): string {
  const definitions = field.args.map((arg) => `$${arg.name}: ${arg.type.toString()}`).join(', ');
  const args = field.args.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
  return `${kind}${definitions ? ` (${definitions})` : ''} { ${field.name}${args ? `(${args})` : ''} ${selectionFor(getNamedType(field.type))} }`;
}

function minimalObject(type: GraphQLInputObjectType): Record<string, unknown> {
  return Object.fromEntries(
    Object.values(type.getFields())
      .filter((field) => isNonNullType(field.type) && field.defaultValue === undefined)
      .map((field) => [field.name, minimalValue(field.type)]),
  );
}

/** A value of the type that coerces: required fields only, each the simplest of its type. */
export function minimalValue(type: GraphQLInputType): unknown {
  if (!isNonNullType(type)) return undefined;
  const inner = type.ofType;
  if (isListType(inner)) return [];
  if (isInputObjectType(inner)) return minimalObject(inner);
  if (isEnumType(inner)) return inner.getValues()[0].value;
  switch (inner.name) {
    case 'Int':
    case 'Float':
      return 1;
    case 'Boolean':
      return false;
    case 'DateTime':
      return '2026-01-01T00:00:00.000Z';
    case 'JSON':
      return {};
    default:
      return 'x';
  }
}

/** Variables for a root field's required arguments. */
export function minimalVariables(field: GraphQLField<unknown, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    field.args.filter((arg) => isNonNullType(arg.type)).map((arg) => [arg.name, minimalValue(arg.type)]),
  );
}

const TEXT_SCALARS = new Set(['String', 'ID', 'JSON']);

/** The paths below a type that hold text (String, ID, JSON), a list's item addressed as "0". */
export function textLeaves(type: GraphQLInputType, path: string[] = [], depth = 0): string[][] {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (depth > 6) return [];
  if (isListType(inner)) return textLeaves(inner.ofType, [...path, '0'], depth + 1);
  if (isInputObjectType(inner)) {
    return Object.values(inner.getFields()).flatMap((field) => textLeaves(field.type, [...path, field.name], depth + 1));
  }
  return isScalarType(inner) && TEXT_SCALARS.has(inner.name) ? [path] : [];
}

/** A value of the type holding `leaf` at `path` and the simplest values elsewhere. */
export function valueWith(type: GraphQLInputType, path: string[], leaf: unknown): unknown {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (path.length === 0) return leaf;
  if (isListType(inner)) return [valueWith(inner.ofType, path.slice(1), leaf)];
  if (!isInputObjectType(inner)) throw new Error(`No field ${path[0]} in ${inner.toString()}`);
  return { ...minimalObject(inner), [path[0]]: valueWith(inner.getFields()[path[0]].type, path.slice(1), leaf) };
}

/** Rows in every table, by table name: what a refused request must leave as it was. */
export async function rowCounts(app: RunningApp): Promise<Record<string, number>> {
  const { dataSource } = app.database;
  // One statement for every table: fuzzing counts before and after each request.
  const counts = dataSource.entityMetadatas.map(({ tableName }) => `SELECT '${tableName}' AS "table", count(*)::int AS count FROM "${tableName}"`);
  const rows: { table: string; count: number }[] = await dataSource.query(counts.join(' UNION ALL '));
  return Object.fromEntries(rows.map(({ table, count }) => [table, count]));
}
