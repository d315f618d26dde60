import ReactMarkdown from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import remarkGfm from 'remark-gfm';
import './markdown.css';

const remarkPlugins = [remarkGfm];
// Unknown fence languages stay plain rather than guessed: a guess is wrong more often than helpful.
const rehypePlugins: Parameters<typeof ReactMarkdown>[0]['rehypePlugins'] = [[rehypeHighlight, { detect: false }]];

/**
 * A model's text as GitHub-flavoured Markdown (tables, task lists, strikethrough, fenced code
 * highlighted by its language). HTML in the text is shown as text and never run: react-markdown
 * escapes it (no raw-HTML plugin is added), and its URL filter drops `javascript:` links.
 */
export function Markdown({ text, className }: { text: string; className?: string }) {
  return (
    <div className={className ? `markdown ${className}` : 'markdown'}>
      <ReactMarkdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins}>
        {text}
      </ReactMarkdown>
    </div>
  );
}
