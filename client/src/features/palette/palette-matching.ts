/** The words of a query, lower case. */
export function queryWords(query: string): string[] {
  return query.toLowerCase().split(/\s+/).filter((word) => word !== '');
}

/** Every word appears somewhere in the text (a title, a command's label and keywords). */
export function matchesWords(text: string, words: readonly string[]): boolean {
  const haystack = text.toLowerCase();
  return words.every((word) => haystack.includes(word));
}
