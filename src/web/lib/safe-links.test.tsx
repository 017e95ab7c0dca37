import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { SafeLinks, linkSegments, safeHref } from './safe-links';

describe('linkSegments', () => {
  it('turns http and https URLs into links and keeps the text around them', () => {
    expect(linkSegments('See https://example.com/a?b=1 and http://x.org now')).toEqual([
      { kind: 'text', text: 'See ' },
      { kind: 'link', text: 'https://example.com/a?b=1', href: 'https://example.com/a?b=1' },
      { kind: 'text', text: ' and ' },
      { kind: 'link', text: 'http://x.org', href: 'http://x.org/' },
      { kind: 'text', text: ' now' },
    ]);
  });

  it('leaves sentence punctuation outside the link but keeps balanced parentheses', () => {
    expect(linkSegments('Read https://example.com.')).toEqual([
      { kind: 'text', text: 'Read ' },
      { kind: 'link', text: 'https://example.com', href: 'https://example.com/' },
      { kind: 'text', text: '.' },
    ]);
    const wiki = linkSegments('(see https://en.wikipedia.org/wiki/Ada_(programmer))');
    expect(wiki[1]).toEqual({
      kind: 'link',
      text: 'https://en.wikipedia.org/wiki/Ada_(programmer)',
      href: 'https://en.wikipedia.org/wiki/Ada_(programmer)',
    });
    expect(wiki[2]).toEqual({ kind: 'text', text: ')' });
  });

  it('keeps javascript:, data: and vbscript: as plain text', () => {
    for (const text of ['javascript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'vbscript:msgbox(1)']) {
      expect(linkSegments(`click ${text}`)).toEqual([{ kind: 'text', text: `click ${text}` }]);
    }
  });

  it('allows mailto links', () => {
    expect(linkSegments('mail mailto:ada@example.com')).toEqual([
      { kind: 'text', text: 'mail ' },
      { kind: 'link', text: 'mailto:ada@example.com', href: 'mailto:ada@example.com' },
    ]);
  });

  it('gives back the whole input when the segments are joined', () => {
    const text = 'a https://x.org/(1) b <i>c</i> javascript:void(0) http:/broken https://';
    expect(linkSegments(text).map((s) => s.text).join('')).toBe(text);
  });
});

describe('safeHref', () => {
  it('accepts only well-formed http, https and mailto URLs', () => {
    expect(safeHref('https://example.com')).toBe('https://example.com/');
    expect(safeHref('https://')).toBeNull();
    expect(safeHref('javascript:alert(1)')).toBeNull();
    expect(safeHref('JAVASCRIPT:alert(1)')).toBeNull();
    expect(safeHref('ftp://example.com')).toBeNull();
    expect(safeHref('not a url')).toBeNull();
  });
});

describe('SafeLinks', () => {
  it('renders markup as text and only safe links as anchors', () => {
    const { container } = render(
      <p>
        <SafeLinks text={'<script>alert(1)</script> <img src=x onerror=alert(1)> javascript:alert(1) https://example.com'} />
      </p>,
    );
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('img')).toBeNull();
    expect(container.textContent).toContain('<script>alert(1)</script>');
    expect(container.textContent).toContain('javascript:alert(1)');
    const links = screen.getAllByRole('link');
    expect(links).toHaveLength(1);
    expect(links[0]).toHaveAttribute('href', 'https://example.com/');
    expect(links[0]).toHaveAttribute('target', '_blank');
    expect(links[0]).toHaveAttribute('rel', 'noopener noreferrer nofollow');
  });

  it('renders nothing for empty text', () => {
    const { container } = render(<div>{<SafeLinks text={null} />}</div>);
    expect(container.textContent).toBe('');
  });
});
