import { registerEnumType } from 'type-graphql';
import { SearchScope } from './search';

registerEnumType(SearchScope, {
  name: 'SearchScope',
  description: 'Where a search looks.',
  valuesConfig: {
    SESSION: { description: 'The given session only.' },
    LINEAGE: { description: "The given session's whole lineage tree: its origin and every continuation, branches included." },
    ACCOUNT: { description: "Every session of the caller's account." },
  },
});
