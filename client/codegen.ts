import type { CodegenConfig } from '@graphql-codegen/cli';

const config: CodegenConfig = {
  schema: '../schema.graphql',
  documents: ['src/**/*.{ts,tsx}', '!src/gql/**/*'],
  generates: {
    'src/gql/': {
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: {
        useTypeImports: true,
        // Apollo Client adds __typename to every selection; the cache needs it to normalize.
        nonOptionalTypename: true,
        enumsAsTypes: true,
        scalars: { DateTime: 'string', JSON: 'unknown' },
      },
    },
  },
};

export default config;
