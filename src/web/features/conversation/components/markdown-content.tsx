// Renders a reply's Markdown (CommonMark + GFM through react-markdown) as React elements, safely:
// raw HTML in a reply is shown as text, never parsed (react-markdown without rehype-raw); a link
// becomes an <a> only for absolute http(s) and mailto URLs (safe-links.tsx decides); images are
// never loaded: their alt text is shown. Text between [DO_NOT_READ] and [/DO_NOT_READ] is bold
// (spec section 9; do-not-read-markdown.ts).
import { memo, type ReactNode } from 'react';
import Markdown, { type Components } from 'react-markdown';
import remarkBreaks from 'remark-breaks';
import remarkGfm from 'remark-gfm';
import { ImageOffIcon } from 'lucide-react';
import { safeHref } from '../../../lib/safe-links';
import { cn } from '../../../lib/cn';
import { markDoNotRead, rehypeDoNotRead } from '../utils/do-not-read-markdown';

// Styled paragraphs, not <h*>: a reply's headings are not part of the page's outline.
const heading = (big: boolean) =>
  function ReplyHeading({ children }: { children?: ReactNode }) {
    return <p className={cn('font-semibold', big && 'text-base')}>{children}</p>;
  };

const components: Components = {
  h1: heading(true),
  h2: heading(true),
  h3: heading(false),
  h4: heading(false),
  h5: heading(false),
  h6: heading(false),
  a({ href, children }) {
    const safe = href ? safeHref(href) : null;
    if (!safe) return <>{children}</>;
    return (
      <a
        href={safe}
        target="_blank"
        rel="noopener noreferrer nofollow"
        className="[overflow-wrap:anywhere] text-primary underline underline-offset-2 hover:text-primary/80"
      >
        {children}
      </a>
    );
  },
  img({ alt }) {
    return (
      <span
        title="Images in replies are not loaded"
        className="inline-flex items-baseline gap-1 rounded border border-dashed px-1 text-muted-foreground italic"
      >
        <ImageOffIcon className="size-3.5 self-center" aria-hidden />
        {alt || 'Image'}
      </span>
    );
  },
  pre({ children }) {
    return <pre className="overflow-x-auto rounded-md bg-muted p-3 font-mono text-xs leading-relaxed">{children}</pre>;
  },
  blockquote({ children }) {
    return <blockquote className="grid gap-2 border-l-2 border-gold pl-3 italic">{children}</blockquote>;
  },
  ul({ children }) {
    return <ul className="grid list-disc gap-1 pl-5">{children}</ul>;
  },
  ol({ children, start }) {
    return (
      <ol start={start} className="grid list-decimal gap-1 pl-5">
        {children}
      </ol>
    );
  },
  hr() {
    return <hr className="border-border" />;
  },
  table({ children }) {
    return (
      <div className="overflow-x-auto">
        <table className="text-sm [&_td]:border [&_td]:px-2 [&_td]:py-1 [&_th]:border [&_th]:px-2 [&_th]:py-1">{children}</table>
      </div>
    );
  },
};

// remark-breaks: a single newline in a reply is a line break, as people and models mean it.
const remarkPlugins = [remarkGfm, remarkBreaks];
const rehypePlugins = [rehypeDoNotRead];

/**
 * Memoized: parsing Markdown is the costly part of drawing the log, and a streamed reply changes
 * many times a second; the messages that did not change are not parsed again.
 */
export const MarkdownContent = memo(function MarkdownContent({ text, className }: { text: string; className?: string }) {
  return (
    <div
      // A reply may be in a right-to-left language: its direction follows its first words.
      dir="auto"
      className={cn(
        'grid grid-cols-[minmax(0,1fr)] gap-2 leading-relaxed [overflow-wrap:anywhere]',
        '[&_:not(pre)>code]:rounded [&_:not(pre)>code]:bg-muted [&_:not(pre)>code]:px-1 [&_:not(pre)>code]:py-0.5 [&_:not(pre)>code]:font-mono [&_:not(pre)>code]:text-[0.9em]',
        className,
      )}
    >
      <Markdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={components}>
        {markDoNotRead(text)}
      </Markdown>
    </div>
  );
});
