import type { ConversationContext, ConversationServices } from '../conversation/graphql/conversation.context';
import type { SearchService } from './search.service';

export interface SearchContext extends ConversationContext {
  services: ConversationServices & { search: SearchService };
}
