// Spec section 9: text between [DO_NOT_READ] and [/DO_NOT_READ] is shown bold in the chat and
// removed before speech. Replies use it for citations ("from notes.txt (chunk 2)").
export const DO_NOT_READ_OPEN = '[DO_NOT_READ]';
export const DO_NOT_READ_CLOSE = '[/DO_NOT_READ]';

export interface TextSegment {
  text: string;
  /** Inside a DO_NOT_READ block: shown bold, never spoken. */
  doNotRead: boolean;
}

/** Splits a reply into plain and DO_NOT_READ segments (an unclosed block runs to the end). */
export function splitDoNotRead(text: string): TextSegment[] {
  const segments: TextSegment[] = [];
  let rest = text;
  while (rest.length > 0) {
    const open = rest.indexOf(DO_NOT_READ_OPEN);
    if (open === -1) {
      segments.push({ text: rest, doNotRead: false });
      break;
    }
    if (open > 0) segments.push({ text: rest.slice(0, open), doNotRead: false });
    const afterOpen = rest.slice(open + DO_NOT_READ_OPEN.length);
    const close = afterOpen.indexOf(DO_NOT_READ_CLOSE);
    if (close === -1) {
      if (afterOpen) segments.push({ text: afterOpen, doNotRead: true });
      break;
    }
    if (close > 0) segments.push({ text: afterOpen.slice(0, close), doNotRead: true });
    rest = afterOpen.slice(close + DO_NOT_READ_CLOSE.length);
  }
  return segments;
}

/** The text to speak: DO_NOT_READ blocks removed, whitespace tidied. */
export function stripDoNotRead(text: string): string {
  return splitDoNotRead(text)
    .filter((s) => !s.doNotRead)
    .map((s) => s.text)
    .join('')
    .replace(/[ \t]{2,}/g, ' ')
    .replace(/\s+([.,;:!?])/g, '$1')
    .trim();
}
