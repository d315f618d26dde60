import { describe, expect, it } from '@jest/globals';
import { render, screen, waitFor } from '@testing-library/react';
import { Markdown } from '../Markdown';

describe('an answer in Markdown', () => {
  it('shows tables and highlighted code blocks as GitHub does', async () => {
    const { container } = render(<Markdown text={'| fruit | count |\n| --- | --- |\n| apple | 3 |\n\n```js\nconst answer = 42;\n```'} />);
    expect(screen.getByRole('table')).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: 'apple' })).toBeInTheDocument();
    // The highlighter loads with the first code block that names its language.
    await waitFor(() => expect(container.querySelector('pre code.language-js .hljs-keyword')?.textContent).toBe('const'));
  });

  it('shows a task list as boxes beside their items, saying done or not done, with no form fields', () => {
    const { container } = render(<Markdown text={'- [x] flights\n- [ ] hotel'} />);
    const items = screen.getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual(['✓ flights', ' hotel']);
    expect(screen.getAllByRole('img').map((box) => box.getAttribute('aria-label'))).toEqual(['Done:', 'Not done:']);
    // Each box is the item's first child: nothing stands between it and its text.
    expect(items.map((item) => item.firstElementChild?.className)).toEqual(['task-box task-box-done', 'task-box']);
    expect(container.querySelector('input')).toBeNull();
    expect(container.querySelector('ul')).toHaveClass('contains-task-list');
  });

  it('shows HTML in the text as text and runs nothing', () => {
    const { container } = render(<Markdown text={'<img src=x onerror="alert(1)"> <script>alert(2)</script> [link](javascript:alert(3))'} />);
    expect(container.querySelector('img, script')).toBeNull();
    expect(container.querySelector('a')?.getAttribute('href') ?? '').not.toMatch(/javascript:/);
  });
});
