// Renders a reply's Markdown (CommonMark + GFM through react-markdown) as React elements, safely:
// raw HTML in a reply is shown as text, never parsed (react-markdown without rehype-raw); a link
// becomes an <a> only for absolute http(s) and mailto URLs (safe-links.tsx decides); images are
// never loaded: their alt text is shown. Text between [DO_NOT_READ] and [/DO_NOT_READ] is bold
// (spec section 9; do-not-read-markdown.ts).
import { memo, useId, useMemo, useRef, type ReactNode } from 'react';
import type { Element, Root } from 'hast';
import Markdown, { type Components } from 'react-markdown';
import remarkBreaks from 'remark-breaks';
import remarkGfm from 'remark-gfm';
import { ImageOffIcon } from 'lucide-react';
import { safeHref } from '../../../lib/safe-links';
import { cn } from '../../../lib/cn';
import { markDoNotRead, rehypeDoNotRead } from '../utils/do-not-read-markdown';
import { settleStreamingTail, streamingBlocks } from '../utils/streaming-blocks';
import { CopyButton } from './copy-button';

// Styled paragraphs, not <h*>: a reply's headings are not part of the page's outline. The class
// is kept: GFM's footnotes heading comes as sr-only. Each block takes its direction from its own
// first words (dir="auto"), so an English paragraph after an Arabic one is not turned around.
const heading = (big: boolean) =>
  function ReplyHeading({ children, className, id }: { children?: ReactNode; className?: string; id?: string }) {
    return (
      <p dir="auto" id={id} className={cn('font-semibold', big && 'text-base', className)}>
        {children}
      </p>
    );
  };

/** A fenced code block, left to right whatever the reply's language, with its own Copy. */
function CodeBlock({ children }: { children?: ReactNode }) {
  const pre = useRef<HTMLPreElement>(null);
  return (
    <div className="group/code relative">
      <pre ref={pre} dir="ltr" className="overflow-x-auto rounded-md bg-muted p-3 pr-16 font-mono text-xs leading-relaxed">
        {children}
      </pre>
      <CopyButton label="Copy code" text={() => pre.current?.textContent ?? ''} className="absolute top-1 right-1 bg-muted/90" />
    </div>
  );
}

const components: Components = {
  h1: heading(true),
  h2: heading(true),
  h3: heading(false),
  h4: heading(false),
  h5: heading(false),
  h6: heading(false),
  a({ href, children, id, ...rest }) {
    // GFM footnotes link within the reply ("#<prefix>fn-1" and back): same-page anchors, kept.
    if (href?.startsWith('#') && 'data-footnote-ref' in rest) return <a href={href} id={id} className="text-primary no-underline">{children}</a>;
    if (href?.startsWith('#') && 'data-footnote-backref' in rest) return <a href={href} aria-label="Back to the text" className="text-primary no-underline">{children}</a>;
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
  pre: CodeBlock,
  p({ children }) {
    return <p dir="auto">{children}</p>;
  },
  li({ children, className, id }) {
    return (
      <li dir="auto" id={id} className={className}>
        {children}
      </li>
    );
  },
  blockquote({ children }) {
    return (
      <blockquote dir="auto" className="grid gap-2 border-s-2 border-gold ps-3 italic">
        {children}
      </blockquote>
    );
  },
  ul({ children, className }) {
    // A task list's items carry their own checkbox: no bullet beside it.
    const tasks = className?.includes('contains-task-list');
    return (
      <ul dir="auto" className={cn('grid gap-1', tasks ? 'list-none ps-1' : 'list-disc ps-5')}>
        {children}
      </ul>
    );
  },
  ol({ children, start }) {
    return (
      <ol dir="auto" start={start} className="grid list-decimal gap-1 ps-5">
        {children}
      </ol>
    );
  },
  td({ children, style }) {
    return (
      <td dir="auto" style={style}>
        {children}
      </td>
    );
  },
  th({ children, style }) {
    return (
      <th dir="auto" style={style}>
        {children}
      </th>
    );
  },
  section({ children, className }) {
    // GFM's footnotes, set apart from the reply.
    return <section className={cn(className, 'grid gap-1 border-t pt-2 text-xs text-muted-foreground')}>{children}</section>;
  },
  hr() {
    return <hr className="border-border" />;
  },
  table({ children }) {
    return (
      <div className="overflow-x-auto">
        {/* Cells keep whole words (the reply's overflow-wrap:anywhere would squeeze every column
            into the bubble, breaking "London" into "Lon/do/n"): a wide table scrolls instead. */}
        <table className="text-sm [&_td]:border [&_td]:px-2 [&_td]:py-1 [&_td]:[overflow-wrap:normal] [&_th]:border [&_th]:px-2 [&_th]:py-1 [&_th]:[overflow-wrap:normal]">
          {children}
        </table>
      </div>
    );
  },
};

// remark-breaks: a single newline in a reply is a line break, as people and models mean it.
const remarkPlugins = [remarkGfm, remarkBreaks];

/**
 * GFM names every reply's footnotes heading "footnote-label" (remark-rehype's prefix does not reach
 * it), and its references point at it: prefixed here, so two replies with footnotes share no id.
 */
function rehypeFootnoteLabel(prefix: string) {
  const label = 'footnote-label';
  return () => (tree: Root) => {
    const visit = (node: Root | Element) => {
      for (const child of node.children) {
        if (child.type !== 'element') continue;
        const props = child.properties;
        if (props.id === label) props.id = `${prefix}${label}`;
        if (Array.isArray(props.ariaDescribedBy)) props.ariaDescribedBy = props.ariaDescribedBy.map((v) => (v === label ? `${prefix}${label}` : v));
        visit(child);
      }
    };
    visit(tree);
  };
}

interface Props {
  text: string;
  /**
   * The reply is still streaming in: its finished blocks are parsed once, only the last one again
   * as words arrive (utils/streaming-blocks.ts). A complete reply is parsed whole.
   */
  streaming?: boolean;
  className?: string;
}

/**
 * Memoized: parsing Markdown is the costly part of drawing the log, and a streamed reply changes
 * many times a second; the messages that did not change are not parsed again.
 */
export const MarkdownContent = memo(function MarkdownContent({ text, streaming = false, className }: Props) {
  // Footnote ids differ per reply: two replies with a footnote 1 must not share an id.
  const prefix = `r${useId().replace(/[^a-zA-Z0-9]/g, '')}-`;
  const source = markDoNotRead(text);
  return (
    <div
      // A reply may be in a right-to-left language: its direction follows its first words (and
      // each block's, its own).
      dir="auto"
      className={cn(
        'grid grid-cols-[minmax(0,1fr)] gap-2 leading-relaxed [overflow-wrap:anywhere]',
        '[&_:not(pre)>code]:rounded [&_:not(pre)>code]:bg-muted [&_:not(pre)>code]:px-1 [&_:not(pre)>code]:py-0.5 [&_:not(pre)>code]:font-mono [&_:not(pre)>code]:text-[0.9em]',
        className,
      )}
    >
      {streaming ? (
        // Keyed by position: a block's text only grows while it is the last one, then stays.
        streamingBlocks(source).map((block, i, all) => (
          <MarkdownBlock key={i} source={i === all.length - 1 ? settleStreamingTail(block) : block} prefix={`${prefix}b${i}-`} />
        ))
      ) : (
        <MarkdownBlock source={source} prefix={prefix} />
      )}
    </div>
  );
});

/** One parse of Markdown (already through markDoNotRead); memoized, so an unchanged block is not parsed again. */
const MarkdownBlock = memo(function MarkdownBlock({ source, prefix }: { source: string; prefix: string }) {
  const rehypePlugins = useMemo(() => [rehypeDoNotRead, rehypeFootnoteLabel(prefix)], [prefix]);
  return (
    <Markdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} remarkRehypeOptions={{ clobberPrefix: prefix }} components={components}>
      {source}
    </Markdown>
  );
});
