/** The stop-word lists of the `stopword` package, which ships no types: one array of words per language. */
declare module 'stopword' {
  export const eng: string[];
}
