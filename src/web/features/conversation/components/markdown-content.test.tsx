// Replies come from a model (or quote documents other people uploaded): their Markdown must never
// become HTML, a script, a javascript: link or a remote image request.
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
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
    const started = Date.now();
    const box = show(nasty);
    expect(box).toHaveTextContent('deep');
    expect(Date.now() - started).toBeLessThan(5000);
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
