import { describe, expect, it } from '@jest/globals';
import { render, screen } from '@testing-library/react';
import { Markdown } from '../Markdown';

describe('an answer in Markdown', () => {
  it('shows tables and highlighted code blocks as GitHub does', () => {
    const { container } = render(<Markdown text={'| fruit | count |\n| --- | --- |\n| apple | 3 |\n\n```js\nconst answer = 42;\n```'} />);
    expect(screen.getByRole('table')).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: 'apple' })).toBeInTheDocument();
    expect(container.querySelector('pre code.language-js .hljs-keyword')?.textContent).toBe('const');
  });

  it('shows HTML in the text as text and runs nothing', () => {
    const { container } = render(<Markdown text={'<img src=x onerror="alert(1)"> <script>alert(2)</script> [link](javascript:alert(3))'} />);
    expect(container.querySelector('img, script')).toBeNull();
    expect(container.querySelector('a')?.getAttribute('href') ?? '').not.toMatch(/javascript:/);
  });
});
