import { useEffect, useState, type ComponentPropsWithoutRef } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import type { PluggableList } from './code-highlighting';
import './markdown.css';

const remarkPlugins = [remarkGfm];

/** A fence that names its language, the only code that gets highlighted. */
const FENCE_WITH_LANGUAGE = /^\s*(```|~~~)\s*[\w+#.-]+/m;

// The highlighter and its languages are most of the renderer's weight: loaded once, when an
// answer first has code to highlight, and then shared by every answer.
let highlighting: PluggableList | null = null;
let loadingHighlighting: Promise<PluggableList> | null = null;

function loadHighlighting(): Promise<PluggableList> {
  loadingHighlighting ??= import('./code-highlighting').then((module) => {
    highlighting = module.highlightingPlugins;
    return highlighting;
  });
  return loadingHighlighting;
}

/** The highlighting plugins once `text` needs them and they are loaded; until then none. */
function useHighlighting(text: string): PluggableList | undefined {
  const needed = FENCE_WITH_LANGUAGE.test(text);
  const [plugins, setPlugins] = useState(highlighting);
  useEffect(() => {
    if (!needed || plugins) return;
    let mounted = true;
    void loadHighlighting().then((loaded) => mounted && setPlugins(loaded));
    return () => {
      mounted = false;
    };
  }, [needed, plugins]);
  return needed && plugins ? plugins : undefined;
}

/**
 * A task list's box says done or not done in words; it is no form field (a disabled checkbox
 * would be one without a label), and the item's text follows it on the same line.
 */
function TaskBox({ type, checked, ...rest }: ComponentPropsWithoutRef<'input'>) {
  if (type !== 'checkbox') return <input type={type} checked={checked} {...rest} />;
  return (
    <span className={checked ? 'task-box task-box-done' : 'task-box'} role="img" aria-label={checked ? 'Done:' : 'Not done:'}>
      {checked ? '✓' : ''}
    </span>
  );
}

const components: Components = { input: TaskBox };

/**
 * A model's text as GitHub-flavoured Markdown (tables, task lists, strikethrough, fenced code
 * highlighted by its language). HTML in the text is shown as text and never run: react-markdown
 * escapes it (no raw-HTML plugin is added), and its URL filter drops `javascript:` links.
 */
export function Markdown({ text, className }: { text: string; className?: string }) {
  const rehypePlugins = useHighlighting(text);
  return (
    <div className={className ? `markdown ${className}` : 'markdown'}>
      <ReactMarkdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={components}>
        {text}
      </ReactMarkdown>
    </div>
  );
}
