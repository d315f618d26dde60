import {
  ASTNode,
  ASTVisitor,
  DocumentNode,
  FragmentDefinitionNode,
  GraphQLError,
  GraphQLSchema,
  Kind,
  SelectionSetNode,
  ValidationContext,
  getNamedType,
  isListType,
  isNonNullType,
  visit,
} from 'graphql';
import { ComplexityEstimator, getComplexity, simpleEstimator } from 'graphql-query-complexity';

/** Deepest selection an operation may have; introspection subtrees are exempt (the schema bounds them). */
export const MAX_QUERY_DEPTH = 15;
/** Most estimated work an operation may ask for (see `listEstimator`). */
export const MAX_QUERY_COMPLEXITY = 50_000;
/** Assumed length of a list field that takes no page size. */
const UNPAGED_LIST_SIZE = 10;

function selectionDepth(
  selectionSet: SelectionSetNode | undefined,
  fragments: Record<string, FragmentDefinitionNode>,
  visited: Set<string>,
): number {
  if (!selectionSet) return 0;
  let deepest = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      if (selection.name.value.startsWith('__')) continue;
      deepest = Math.max(deepest, 1 + selectionDepth(selection.selectionSet, fragments, visited));
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      deepest = Math.max(deepest, selectionDepth(selection.selectionSet, fragments, visited));
    } else {
      const name = selection.name.value;
      const fragment = fragments[name];
      if (!fragment || visited.has(name)) continue;
      deepest = Math.max(deepest, selectionDepth(fragment.selectionSet, fragments, new Set([...visited, name])));
    }
  }
  return deepest;
}

/** A validation rule refusing operations nested deeper than `maxDepth`, before anything executes. */
export function depthLimit(maxDepth: number) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = Object.fromEntries(
      context
        .getDocument()
        .definitions.filter((definition): definition is FragmentDefinitionNode => definition.kind === Kind.FRAGMENT_DEFINITION)
        .map((fragment) => [fragment.name.value, fragment]),
    );
    return {
      OperationDefinition(operation) {
        const depth = selectionDepth(operation.selectionSet, fragments, new Set());
        if (depth > maxDepth) {
          context.reportError(
            new GraphQLError(`Query is nested ${depth} levels deep; at most ${maxDepth} are allowed.`, { nodes: [operation] }),
          );
        }
      },
    };
  };
}

/** Lists cost their page size (first/last) times their items; unpaged lists an assumed size. */
const listEstimator: ComplexityEstimator = ({ field, args, childComplexity }) => {
  const type = isNonNullType(field.type) ? field.type.ofType : field.type;
  if (getNamedType(type).name.endsWith('Connection')) {
    const size = typeof args.first === 'number' ? args.first : typeof args.last === 'number' ? args.last : 50;
    return 1 + childComplexity * Math.max(1, size);
  }
  if (isListType(type)) return 1 + childComplexity * UNPAGED_LIST_SIZE;
  return undefined;
};

/** Per parsed document (Apollo keeps one per query text): what its estimate depends on, and estimates so far. */
const estimates = new WeakMap<DocumentNode, { variables: string[]; byValues: Map<string, number> }>();
const ESTIMATES_PER_DOCUMENT = 100;

/**
 * The variables an estimate depends on: those given to a page size (`first`, `last`) or to a
 * directive (`@include`, `@skip`). No other variable, however large, can change it.
 */
function estimateVariables(document: DocumentNode): string[] {
  const names = new Set<string>();
  const collect = (node: ASTNode) => {
    visit(node, {
      Variable(variable) {
        names.add(variable.name.value);
      },
    });
  };
  visit(document, {
    Argument(argument) {
      if (argument.name.value === 'first' || argument.name.value === 'last') collect(argument.value);
    },
    Directive(directive) {
      collect(directive);
    },
  });
  return [...names].sort();
}

function estimatedComplexity(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown>,
  operationName: string | undefined,
): number {
  let known = estimates.get(document);
  if (!known) {
    known = { variables: estimateVariables(document), byValues: new Map() };
    estimates.set(document, known);
  }
  const key = JSON.stringify([operationName ?? null, ...known.variables.map((name) => variables[name] ?? null)]);
  let complexity = known.byValues.get(key);
  if (complexity === undefined) {
    complexity = getComplexity({
      schema,
      query: document,
      variables,
      operationName,
      estimators: [listEstimator, simpleEstimator({ defaultComplexity: 1 })],
    });
    if (known.byValues.size >= ESTIMATES_PER_DOCUMENT) known.byValues.clear();
    known.byValues.set(key, complexity);
  }
  return complexity;
}

/**
 * The error for an operation whose estimated cost is above {@link MAX_QUERY_COMPLEXITY}, or null.
 * Runs before execution, with the operation's variables.
 */
export function complexityError(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown> | undefined,
  operationName: string | undefined | null,
): GraphQLError | null {
  const complexity = estimatedComplexity(schema, document, variables ?? {}, operationName ?? undefined);
  if (complexity <= MAX_QUERY_COMPLEXITY) return null;
  return new GraphQLError(
    `Query is too complex (estimated ${complexity}; at most ${MAX_QUERY_COMPLEXITY}): ask for smaller pages or fewer nested lists.`,
    { extensions: { code: 'QUERY_TOO_COMPLEX' } },
  );
}
