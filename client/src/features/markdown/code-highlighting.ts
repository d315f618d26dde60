import type { Options } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';

export type PluggableList = NonNullable<Options['rehypePlugins']>;

// Unknown fence languages stay plain rather than guessed: a guess is wrong more often than helpful.
export const highlightingPlugins: PluggableList = [[rehypeHighlight, { detect: false }]];
