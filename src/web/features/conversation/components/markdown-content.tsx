// Renders a reply's Markdown as React elements, safely: the text is never parsed as HTML (a
// "<script>" in a reply is shown as those characters), a link becomes an <a> only for http(s) and
// mailto URLs (safe-links.tsx decides), and images are never loaded: their alt text is shown.
// Text between [DO_NOT_READ] and [/DO_NOT_READ] is bold (spec section 9).
import { Fragment, type ReactNode } from 'react';
import { ImageOffIcon } from 'lucide-react';
import { splitDoNotRead } from '../../../../shared/do-not-read';
import { SafeLinks, safeHref } from '../../../lib/safe-links';
import { cn } from '../../../lib/cn';
import { parseBlocks, type Block } from '../utils/markdown-blocks';
import { DNR_CLOSE, DNR_OPEN, parseInline, type Inline } from '../utils/markdown-inline';

const SENTINELS = new RegExp(`[${DNR_OPEN}${DNR_CLOSE}]`, 'g');

/**
 * The reply with its DO_NOT_READ spans turned into sentinel characters. A span is closed at the
 * end of each line, so no span crosses a block boundary; sentinels already in the text are dropped
 * so a reply cannot forge one.
 */
export function markDoNotRead(text: string): string {
  return splitDoNotRead(text.replace(SENTINELS, ''))
    .map((s) =>
      s.doNotRead
        ? s.text
            .split('\n')
            .map((line) => (line ? `${DNR_OPEN}${line}${DNR_CLOSE}` : line))
            .join('\n')
        : s.text,
    )
    .join('');
}

function renderInline(nodes: Inline[], inLink = false): ReactNode[] {
  return nodes.map((node, i) => {
    switch (node.type) {
      case 'text':
        // Bare URLs become links too, except inside a link (no link in a link).
        return inLink ? <Fragment key={i}>{node.text}</Fragment> : <SafeLinks key={i} text={node.text} />;
      case 'break':
        return <br key={i} />;
      case 'code':
        return (
          <code key={i} className="rounded bg-muted px-1 py-0.5 font-mono text-[0.9em]">
            {node.text}
          </code>
        );
      case 'strong':
        return <strong key={i}>{renderInline(node.children, inLink)}</strong>;
      case 'em':
        return <em key={i}>{renderInline(node.children, inLink)}</em>;
      case 'doNotRead':
        return (
          <strong key={i} data-do-not-read="" className="font-semibold">
            {renderInline(node.children, inLink)}
          </strong>
        );
      case 'image':
        return (
          <span
            key={i}
            title="Images in replies are not loaded"
            className="inline-flex items-baseline gap-1 rounded border border-dashed px-1 text-muted-foreground italic"
          >
            <ImageOffIcon className="size-3.5 self-center" aria-hidden />
            {node.alt || 'Image'}
          </span>
        );
      case 'link': {
        const href = inLink ? null : safeHref(node.url);
        if (!href) return <Fragment key={i}>{renderInline(node.children, inLink)}</Fragment>;
        return (
          <a
            key={i}
            href={href}
            target="_blank"
            rel="noopener noreferrer nofollow"
            className="[overflow-wrap:anywhere] text-primary underline underline-offset-2 hover:text-primary/80"
          >
            {renderInline(node.children, true)}
          </a>
        );
      }
    }
  });
}

const inline = (text: string) => renderInline(parseInline(text));

function renderBlocks(blocks: Block[]): ReactNode[] {
  return blocks.map((block, i) => {
    switch (block.type) {
      case 'paragraph':
        return <p key={i}>{inline(block.text)}</p>;
      case 'heading':
        // Styled, not <h*>: a reply's headings are not part of the page's outline.
        return (
          <p key={i} className={cn('font-semibold', block.level <= 2 && 'text-base')}>
            {inline(block.text)}
          </p>
        );
      case 'code':
        return (
          <pre key={i} className="overflow-x-auto rounded-md bg-muted p-3 font-mono text-xs leading-relaxed">
            <code>{block.text.replace(SENTINELS, '')}</code>
          </pre>
        );
      case 'quote':
        return (
          <blockquote key={i} className="grid gap-2 border-l-2 border-gold pl-3 italic">
            {renderBlocks(block.blocks)}
          </blockquote>
        );
      case 'list': {
        const items = block.items.map((item, j) => <li key={j}>{inline(item)}</li>);
        return block.ordered ? (
          <ol key={i} start={block.start} className="grid list-decimal gap-1 pl-5">
            {items}
          </ol>
        ) : (
          <ul key={i} className="grid list-disc gap-1 pl-5">
            {items}
          </ul>
        );
      }
      case 'rule':
        return <hr key={i} className="border-border" />;
    }
  });
}

export function MarkdownContent({ text, className }: { text: string; className?: string }) {
  return (
    <div className={cn('grid grid-cols-[minmax(0,1fr)] gap-2 leading-relaxed break-words [overflow-wrap:anywhere]', className)}>
      {renderBlocks(parseBlocks(markDoNotRead(text)))}
    </div>
  );
}
