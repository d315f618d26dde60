import './search.enums';
import { SearchResolver } from './search.resolver';

/** Full-text search over transcripts. */
export const searchResolvers = [SearchResolver] as const;
