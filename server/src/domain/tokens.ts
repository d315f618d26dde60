import { countTokens as countO200kTokens } from 'gpt-tokenizer/encoding/o200k_base';

/** The tokenizer every stored token count is computed with. */
export const TOKENIZER = 'o200k_base';

export function countTokens(text: string): number {
  return text.length === 0 ? 0 : countO200kTokens(text);
}
