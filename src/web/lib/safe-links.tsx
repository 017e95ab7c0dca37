// Renders user-written text with its http(s) and mailto links made clickable, and everything else
// as plain text. Descriptions come from other people: they are never parsed as HTML, and only
// the schemes below can become an href (javascript:, data:, vbscript: ... stay inert text).
import type { ReactNode } from 'react';

const ALLOWED_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

// Candidates start at a scheme; whitespace, quotes and angle brackets end them.
const CANDIDATE = /\b(?:https?:\/\/|mailto:)[^\s<>"'`]+/gi;
// Punctuation that usually closes the sentence, not the URL ("see https://x.org.").
const TRAILING = /[.,;:!?'")\]}]+$/;

export type LinkSegment = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string };

/** The safe href for a candidate, or null when it is not a well-formed allowed URL. */
export function safeHref(candidate: string): string | null {
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return null;
  }
  if (!ALLOWED_PROTOCOLS.has(url.protocol)) return null;
  if (url.protocol !== 'mailto:' && !url.hostname) return null;
  return url.href;
}

/** Splits text into plain runs and links. Joining every segment's text gives the input back. */
export function linkSegments(text: string): LinkSegment[] {
  const segments: LinkSegment[] = [];
  let plain = '';
  let last = 0;
  for (const match of text.matchAll(CANDIDATE)) {
    const start = match.index;
    let raw = match[0];
    const trailing = keepBalancedParens(raw, raw.match(TRAILING)?.[0] ?? '');
    raw = raw.slice(0, raw.length - trailing.length);
    const href = safeHref(raw);
    plain += text.slice(last, start);
    if (href) {
      if (plain) segments.push({ kind: 'text', text: plain });
      plain = '';
      segments.push({ kind: 'link', text: raw, href });
    } else {
      plain += raw;
    }
    last = start + raw.length;
  }
  plain += text.slice(last);
  if (plain) segments.push({ kind: 'text', text: plain });
  return segments;
}

/** A URL like https://en.wikipedia.org/wiki/Ada_(programmer) keeps its closing parenthesis. */
function keepBalancedParens(raw: string, trailing: string): string {
  let cut = trailing;
  while (cut.startsWith(')')) {
    const body = raw.slice(0, raw.length - cut.length);
    const opens = body.split('(').length - 1;
    const closes = body.split(')').length - 1;
    if (opens <= closes) break;
    cut = cut.slice(1);
  }
  return cut;
}

interface SafeLinksProps {
  text: string | null | undefined;
  linkClassName?: string;
}

export function SafeLinks({ text, linkClassName }: SafeLinksProps): ReactNode {
  if (!text) return null;
  return linkSegments(text).map((segment, i) =>
    segment.kind === 'link' ? (
      <a
        key={i}
        href={segment.href}
        target="_blank"
        rel="noopener noreferrer nofollow"
        className={linkClassName ?? '[overflow-wrap:anywhere] text-primary underline underline-offset-2 hover:text-primary/80'}
      >
        {segment.text}
      </a>
    ) : (
      <span key={i}>{segment.text}</span>
    ),
  );
}
