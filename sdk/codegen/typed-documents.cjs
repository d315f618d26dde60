/**
 * A graphql-codegen plugin: each operation of the documents as the package's `TypedDocument`,
 * named like `CREATE_SESSION`, its text holding the fragments it uses. The package then sends
 * plain strings and needs no GraphQL library at run time.
 */
const { Kind, print, visit } = require('graphql');

const constantName = (name) => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
const typeName = (operation) => operation.name.value + operation.operation[0].toUpperCase() + operation.operation.slice(1);

module.exports = {
  plugin(_schema, documents) {
    const definitions = documents.flatMap((source) => source.document.definitions);
    const fragments = new Map(definitions.filter((node) => node.kind === Kind.FRAGMENT_DEFINITION).map((node) => [node.name.value, node]));
    const fragmentsUsedBy = (node, names = new Set()) => {
      visit(node, {
        FragmentSpread(spread) {
          if (names.has(spread.name.value)) return;
          names.add(spread.name.value);
          fragmentsUsedBy(fragments.get(spread.name.value), names);
        },
      });
      return names;
    };
    const constants = definitions
      .filter((node) => node.kind === Kind.OPERATION_DEFINITION)
      .map((operation) => {
        const text = [operation, ...[...fragmentsUsedBy(operation)].map((name) => fragments.get(name))].map(print).join('\n');
        const type = typeName(operation);
        return `export const ${constantName(operation.name.value)} = { query: ${JSON.stringify(text)} } as TypedDocument<${type}, ${type}Variables>;`;
      });
    return { prepend: ["import type { TypedDocument } from '../typed-document.js';"], content: constants.join('\n') };
  },
};
