import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import {
  DocumentNode,
  FieldNode,
  FragmentDefinitionNode,
  GraphQLError,
  GraphQLIncludeDirective,
  GraphQLNamedType,
  GraphQLSchema,
  GraphQLSkipDirective,
  Kind,
  OperationDefinitionNode,
  ParseOptions,
  SelectionNode,
  SelectionSetNode,
  ValidationContext,
  ValidationRule,
  ValueNode,
  getDirectiveValues,
  getNamedType,
  getVariableValues,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  valueFromAST,
} from 'graphql';
import { DEFAULT_PAGE_SIZE, validatePageSize } from '../../shared/pagination';

/** Deepest selection an operation may have; introspection (`__schema`) is exempt, the schema bounds it. */
export const MAX_QUERY_DEPTH = 15;
/** Most aliased fields an operation may have, fragments counted each time they are spread. */
export const MAX_QUERY_ALIASES = 30;
/** Most lexical tokens a document may have: parsing stops there, so a huge document costs little. */
export const MAX_DOCUMENT_TOKENS = 5_000;
/** Most estimated work an operation may ask for (see `fieldCost`). */
export const MAX_QUERY_COMPLEXITY = 50_000;
/** Assumed length of a list field that takes no page size. */
const UNPAGED_LIST_SIZE = 10;

export const parseOptions: ParseOptions = { maxTokens: MAX_DOCUMENT_TOKENS };

/**
 * The library's rules report through a callback: reporting (instead of throwing, their default)
 * keeps the refusal a validation error rather than an unexpected failure.
 */
const reportRefusal = {
  propagateOnRejection: false,
  onReject: [
    (context: ValidationContext | null, error: GraphQLError) =>
      context?.reportError(new GraphQLError(error.message.replace(/^Syntax Error: /, ''))),
  ],
};

/**
 * Validation rules bounding depth and aliases; each visits a fragment once however often it is
 * spread, so a document of fragments spreading fragments is checked in time linear in its size.
 */
export const limitRules: ValidationRule[] = [
  maxDepthRule({ n: MAX_QUERY_DEPTH, flattenFragments: true, ignoreIntrospection: true, ...reportRefusal }),
  maxAliasesRule({ n: MAX_QUERY_ALIASES, ...reportRefusal }),
];

/** A request error: answered with HTTP 400 and nothing executed. */
function requestError(message: string, extensions: Record<string, unknown>, nodes?: FieldNode): GraphQLError {
  return new GraphQLError(message, { nodes, extensions: { ...extensions, http: { status: 400 } } });
}

/** An estimate without variables that met one. */
class NeedsVariables extends Error {}

/** Refuses a page size out of range, as the services would, but before anything executes. */
class PageSizeRefused extends Error {
  constructor(readonly error: GraphQLError) {
    super(error.message);
  }
}

/**
 * The estimated cost of an operation: lists cost their page size (first/last, default 50) times
 * their items, unpaged lists an assumed size. Each fragment is estimated once, however often it is
 * spread, so the estimate takes time linear in the document even when its cost is astronomic.
 */
function estimateCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown> | null,
): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const fragmentCosts = new Map<string, number>();

  // Without variables, an estimate that would read one stops: it depends on the request.
  const readsVariable = (value: ValueNode) => {
    if (variables === null && value.kind === Kind.VARIABLE) throw new NeedsVariables();
  };
  const included = (node: SelectionNode) => {
    node.directives?.forEach((directive) => directive.arguments?.forEach((argument) => readsVariable(argument.value)));
    return (
      !getDirectiveValues(GraphQLSkipDirective, node, variables ?? undefined)?.if &&
      getDirectiveValues(GraphQLIncludeDirective, node, variables ?? undefined)?.if !== false
    );
  };

  const fragmentCost = (name: string): number => {
    const known = fragmentCosts.get(name);
    if (known !== undefined) return known;
    fragmentCosts.set(name, 0); // validation refuses cycles; this only keeps a missed one finite
    const fragment = fragments.get(name);
    const cost = fragment ? selectionCost(fragment.selectionSet, schema.getType(fragment.typeCondition.name.value)) : 0;
    fragmentCosts.set(name, cost);
    return cost;
  };

  const selectionCost = (selectionSet: SelectionSetNode, parent: GraphQLNamedType | undefined): number => {
    let cost = 0;
    for (const selection of selectionSet.selections) {
      if (!included(selection)) continue;
      if (selection.kind === Kind.FIELD) cost += fieldCost(selection, parent);
      else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const type = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : parent;
        cost += selectionCost(selection.selectionSet, type);
      } else cost += fragmentCost(selection.name.value);
    }
    return cost;
  };

  const fieldCost = (node: FieldNode, parent: GraphQLNamedType | undefined): number => {
    if (node.name.value.startsWith('__')) return 0; // introspection: bounded by the schema
    const field = isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[node.name.value] : undefined;
    if (!field) return 0;
    const children = node.selectionSet ? selectionCost(node.selectionSet, getNamedType(field.type)) : 0;
    let pageSize: number | undefined;
    for (const name of ['first', 'last']) {
      const argument = node.arguments?.find((candidate) => candidate.name.value === name);
      const definition = field.args.find((candidate) => candidate.name === name);
      if (!argument || !definition) continue;
      readsVariable(argument.value);
      const value = valueFromAST(argument.value, definition.type, variables);
      const [detail] = validatePageSize(name, typeof value === 'number' ? value : null);
      if (detail) throw new PageSizeRefused(requestError(detail.message, { code: 'INVALID_INPUT', details: [detail] }, node));
      if (typeof value === 'number') pageSize ??= value;
    }
    const type = isNonNullType(field.type) ? field.type.ofType : field.type;
    if (getNamedType(type).name.endsWith('Connection')) return 1 + children * Math.max(1, pageSize ?? DEFAULT_PAGE_SIZE);
    if (isListType(type)) return 1 + children * Math.max(1, pageSize ?? UNPAGED_LIST_SIZE);
    return 1 + children;
  };

  return selectionCost(operation.selectionSet, schema.getRootType(operation.operation) ?? undefined);
}

/** As many variable errors as graphql-js reports before it gives up on the rest (its `execute` stops there too). */
const MAX_VARIABLE_ERRORS = 50;

/**
 * The request error for a valid operation that asks for too much, or null: a page size out of
 * range (INVALID_INPUT) or an estimated cost above {@link MAX_QUERY_COMPLEXITY}
 * (QUERY_TOO_COMPLEX). Runs before execution, with the request's variables. When those do not
 * coerce it answers null and leaves their refusal to execution, which reports each one; only
 * when there are more than graphql-js reports does it answer that (BAD_USER_INPUT) itself, since
 * graphql-js's summary of the rest carries no code.
 */
export function operationLimitError(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown> | undefined,
): GraphQLError | null {
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables ?? {}, { maxErrors: MAX_VARIABLE_ERRORS });
  if (coerced.errors) {
    if (coerced.errors.length <= MAX_VARIABLE_ERRORS) return null;
    return requestError(`More than ${MAX_VARIABLE_ERRORS} variable values are invalid; the first: ${coerced.errors[0].message}`, {
      code: 'BAD_USER_INPUT',
    });
  }
  return costError(schema, document, operation, coerced.coerced);
}

/** Outcomes of operations whose estimate reads no variable: the same for every request of the document. */
const requestIndependentCosts = new WeakMap<OperationDefinitionNode, GraphQLError | null>();

/** The cost or page-size refusal of an operation, or null; `variables` are coerced, or null to estimate without them. */
function costError(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode, variables: Record<string, unknown> | null): GraphQLError | null {
  let complexity: number;
  try {
    complexity = estimateCost(schema, document, operation, variables);
  } catch (error) {
    if (error instanceof PageSizeRefused) return error.error;
    throw error;
  }
  if (complexity <= MAX_QUERY_COMPLEXITY) return null;
  return requestError(
    `Query is too complex (estimated ${complexity}; at most ${MAX_QUERY_COMPLEXITY}): ask for smaller pages or fewer nested lists.`,
    { code: 'QUERY_TOO_COMPLEX' },
  );
}

/**
 * {@link operationLimitError} for a server whose execution reports its own variable errors (see
 * {@link tooManyVariableErrors}): variables are coerced here only when the estimate reads one,
 * and an operation whose estimate reads none is estimated once per document.
 */
export function operationCostError(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown> | undefined,
): GraphQLError | null {
  const known = requestIndependentCosts.get(operation);
  if (known !== undefined) return known;
  try {
    const error = costError(schema, document, operation, null);
    requestIndependentCosts.set(operation, error);
    return error;
  } catch (error) {
    if (!(error instanceof NeedsVariables)) throw error;
  }
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables ?? {}, { maxErrors: MAX_VARIABLE_ERRORS });
  return coerced.errors ? null : costError(schema, document, operation, coerced.coerced);
}

/** What graphql-js's execution reports, last, when it stops coercing variables at its error limit. */
const VARIABLE_ERROR_LIMIT_MESSAGE = 'Too many errors processing variables, error limit reached. Execution aborted.';

/**
 * The one request error (BAD_USER_INPUT) to answer instead of execution's variable errors when
 * they hit graphql-js's limit, whose summary carries no code; null for any other errors.
 */
export function tooManyVariableErrors(errors: readonly GraphQLError[]): GraphQLError | null {
  if (errors.length <= MAX_VARIABLE_ERRORS || errors[errors.length - 1].message !== VARIABLE_ERROR_LIMIT_MESSAGE) return null;
  return requestError(`More than ${MAX_VARIABLE_ERRORS} variable values are invalid; the first: ${errors[0].message}`, { code: 'BAD_USER_INPUT' });
}
