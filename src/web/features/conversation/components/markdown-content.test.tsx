// Replies come from a model (or quote documents other people uploaded): their Markdown must never
// become HTML, a script, a javascript: link or a remote image request.
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MarkdownContent } from './markdown-content';

const show = (text: string) => render(<MarkdownContent text={text} />).container;

describe('reply Markdown', () => {
  it('renders the supported subset as elements', () => {
    const box = show('# Title\n\nSome **bold**, *em*, _also em_ and `code`.\n\n- one\n- two\n\n3. three\n4. four\n\n> quoted\n\n```\nconst x = 1;\n```\n\n---');
    expect(box.querySelector('strong')).toHaveTextContent('bold');
    expect([...box.querySelectorAll('em')].map((e) => e.textContent)).toEqual(['em', 'also em']);
    expect(box.querySelector('p code')).toHaveTextContent('code');
    expect([...box.querySelectorAll('ul li')].map((li) => li.textContent)).toEqual(['one', 'two']);
    expect(box.querySelector('ol')).toHaveAttribute('start', '3');
    expect(box.querySelector('blockquote')).toHaveTextContent('quoted');
    expect(box.querySelector('pre code')).toHaveTextContent('const x = 1;');
    expect(box.querySelector('hr')).not.toBeNull();
    expect(screen.getByText('Title').closest('p')).toHaveClass('font-semibold');
  });

  it('shows raw HTML as text: no script, no element, no handler', () => {
    const box = show('Hi <script>window.pwned = 1</script> <img src=x onerror="alert(1)"> <b>bold?</b>');
    expect(box.querySelector('script, img, b')).toBeNull();
    expect(box.querySelector('[onerror]')).toBeNull();
    expect(box).toHaveTextContent('Hi <script>window.pwned = 1</script> <img src=x onerror="alert(1)"> <b>bold?</b>');
    expect((window as unknown as { pwned?: number }).pwned).toBeUndefined();
  });

  it('links only http, https and mailto; javascript:, data: and vbscript: stay inert text', () => {
    const box = show(
      '[site](https://example.org/a) [mail](mailto:ada@example.org) [bad](javascript:alert(1)) [data](data:text/html,<b>x</b>) [vb](vbscript:msgbox) [rel](/admin)',
    );
    const links = [...box.querySelectorAll('a')];
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['https://example.org/a', 'mailto:ada@example.org']);
    for (const a of links) {
      expect(a).toHaveAttribute('rel', 'noopener noreferrer nofollow');
      expect(a).toHaveAttribute('target', '_blank');
    }
    // The refused links keep their words, without an href anywhere.
    expect(box).toHaveTextContent('bad data vb rel');
    expect(box.innerHTML).not.toMatch(/javascript:|vbscript:|data:text/);
  });

  it('makes bare http(s) URLs clickable but never nests a link in a link', () => {
    const box = show('See https://example.org/x. And [https://example.org/y](https://example.org/z).');
    const links = [...box.querySelectorAll('a')];
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['https://example.org/x', 'https://example.org/z']);
    expect(box.querySelector('a a')).toBeNull();
  });

  it('never loads an image: no <img>, the alt text is shown instead', () => {
    const box = show('Look: ![A portrait of Ada](https://tracker.example/pixel.png) and ![](http://x/y.png)');
    expect(box.querySelector('img')).toBeNull();
    expect(box.innerHTML).not.toContain('tracker.example');
    expect(screen.getByText('A portrait of Ada')).toBeInTheDocument();
    expect(screen.getByText('Image')).toBeInTheDocument();
  });

  it('shows DO_NOT_READ text bold, and its "(from x (chunk 2))" is not taken for a link', () => {
    const box = show('Here is what I wrote:\n\n> The engine weaves algebraic patterns.\n\n[DO_NOT_READ](from engine-notes.txt (chunk 2))[/DO_NOT_READ]');
    const bold = box.querySelector('[data-do-not-read]');
    expect(bold?.tagName).toBe('STRONG');
    expect(bold).toHaveTextContent('(from engine-notes.txt (chunk 2))');
    expect(box).not.toHaveTextContent('DO_NOT_READ');
    expect(box.querySelector('a')).toBeNull();
  });

  it('keeps DO_NOT_READ bold across lines and inside a sentence; plain text around it is not bold', () => {
    const box = show('Before [DO_NOT_READ]first line\nsecond line[/DO_NOT_READ] after, and an unclosed [DO_NOT_READ]tail');
    const bold = [...box.querySelectorAll('[data-do-not-read]')].map((b) => b.textContent);
    expect(bold).toEqual(['first line', 'second line', 'tail']);
    expect(screen.getByText(/^Before/).closest('[data-do-not-read]')).toBeNull();
  });

  it('survives hostile input without hanging: deep nesting and thousands of unmatched markers', () => {
    const nasty = `${'>'.repeat(500)} deep\n\n${'*'.repeat(5000)}${'_['.repeat(3000)}${'`'.repeat(2000)}`;
    // Not hanging is the test's own timeout (tests never assert a duration: a loaded CI machine
    // took 5.6 s once); the text still shows.
    const box = show(nasty);
    expect(box).toHaveTextContent('deep');
  });

  it('renders GFM tables and strikethrough, and keeps angle-bracket autolinks to the allowed schemes', () => {
    const box = show('| a | b |\n|---|---|\n| 1 | 2 |\n\n~~gone~~ <https://example.org/t> <javascript:alert(1)> www.example.com');
    expect([...box.querySelectorAll('td')].map((td) => td.textContent)).toEqual(['1', '2']);
    expect(box.querySelector('del')).toHaveTextContent('gone');
    const hrefs = [...box.querySelectorAll('a')].map((a) => a.getAttribute('href'));
    expect(hrefs).toEqual(['https://example.org/t', 'http://www.example.com/']);
    expect(box.innerHTML).not.toMatch(/href="javascript:/);
  });

  it('keeps DO_NOT_READ bold through inline formatting, and strips its markers from code', () => {
    const box = show('[DO_NOT_READ]see **this** note[/DO_NOT_READ] spoken\n\n```\n[DO_NOT_READ]x = 1[/DO_NOT_READ]\n```');
    const bold = [...box.querySelectorAll('[data-do-not-read]')].map((b) => b.textContent);
    expect(bold).toEqual(['see ', 'this', ' note']);
    expect(box.querySelector('pre code')?.textContent).toBe('x = 1\n');
    expect(box.querySelector('pre [data-do-not-read]')).toBeNull();
    expect(box).not.toHaveTextContent(/\uE000|\uE001/);
  });
});

describe('reply Markdown as models write it', () => {
  it("keeps table cells' words whole (the table scrolls instead of squeezing them)", () => {
    const box = show('| City | Population |\n|---|---|\n| London | 8,982,000 |');
    const cell = box.querySelector('td')!;
    expect(cell.closest('table')!.className).toContain('[&_td]:[overflow-wrap:normal]');
    expect(cell.closest('div')!.className).toContain('overflow-x-auto');
  });

  it('gives each block its own direction, and code always left to right', () => {
    const box = show('مرحبا! هذه إجابتي.\n\nThe English part.\n\n- عنصر\n- item\n\n```js\nconsole.log(1);\n```\n\n| a |\n|---|\n| ب |');
    for (const el of box.querySelectorAll('p, li, ul, td, th')) expect(el).toHaveAttribute('dir', 'auto');
    expect(box.querySelector('pre')).toHaveAttribute('dir', 'ltr');
  });

  it('offers Copy on a code block, which copies its text', async () => {
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('isSecureContext', true);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    show('Run this:\n\n```sh\nnpm ci\nnpm start\n```');
    fireEvent.click(screen.getByRole('button', { name: 'Copy code' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('npm ci\nnpm start\n'));
    expect(await screen.findByText('Copied')).toBeInTheDocument();
    vi.unstubAllGlobals();
  });

  it('renders footnotes as links within the reply, with ids of its own, and the label for screen readers only', () => {
    const text = 'Ada wrote the first program.[^1]\n\n[^1]: Notes on the Analytical Engine, 1843.';
    const { container } = render(
      <>
        <MarkdownContent text={text} />
        <MarkdownContent text={text} />
      </>,
    );
    const refs = [...container.querySelectorAll('a[href^="#"]')];
    // A reference and its way back, in each reply.
    expect(refs).toHaveLength(4);
    const ids = [...container.querySelectorAll('[id]')].map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const a of refs) expect(container.querySelector(`[id="${a.getAttribute('href')!.slice(1)}"]`)).not.toBeNull();
    expect(screen.getAllByText('Footnotes')[0]).toHaveClass('sr-only');
    // A fragment link the model writes itself is still not a link.
    expect(show('[jump](#top)').querySelector('a')).toBeNull();
  });

  it('shows a task list with its checkboxes and no bullets', () => {
    const box = show('- [x] Write the notes\n- [ ] Publish them');
    const list = box.querySelector('ul')!;
    expect(list).toHaveClass('list-none');
    expect([...list.querySelectorAll('input[type="checkbox"]')].map((c) => (c as HTMLInputElement).checked)).toEqual([true, false]);
  });
});
