// Turns a reply that grows as it streams into sentences to speak, each once, as soon as it is
// complete, so the first words are heard long before the reply ends. DO_NOT_READ spans (spec
// section 9) are never spoken; an unclosed one hides everything after it until it closes.
// Shared: Self-paced Chat cuts replies in the browser, open mic's voice turn on the server.
import { splitDoNotRead } from './do-not-read';

// A sentence ends at . ! ? or … (with closing quotes or brackets) followed by white space, at a
// Chinese or Japanese full stop, exclamation or question mark (written with no space after), or
// at a line break.
const BOUNDARY = /[.!?…]+["'”’)\]]*\s+|[。！？]+[」』）"”’]*\s*|\n+/g;
// Speaking a piece with fewer letters than this alone sounds clipped: it joins the next one.
const MIN_LETTERS = 12;

/** The spoken form of a piece of Markdown: markup, links' targets and bare URLs dropped. */
export function speakable(text: string): string {
  return text
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+[.)])\s+/gm, '')
    .replace(/[*_`~|]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

const letters = (s: string) => (s.match(/[\p{L}\p{N}]/gu) ?? []).length;

export class SentenceStream {
  /** How much of the masked reply has been handed out. */
  private consumed = 0;
  private carry = '';

  /** Sentences completed since the last call, given the whole reply so far. */
  push(reply: string): string[] {
    return this.take(reply, false);
  }

  /** The rest of the reply, once it is complete. */
  finish(reply: string): string[] {
    return this.take(reply, true);
  }

  private take(reply: string, final: boolean): string[] {
    // DO_NOT_READ spans become a space, so positions before them never move as the reply grows.
    const masked = splitDoNotRead(reply)
      .map((s) => (s.doNotRead ? ' ' : s.text))
      .join('');
    const pending = masked.slice(this.consumed);
    let end = 0;
    const pieces: string[] = [];
    BOUNDARY.lastIndex = 0;
    for (let m = BOUNDARY.exec(pending); m; m = BOUNDARY.exec(pending)) {
      const stop = m.index + m[0].length;
      pieces.push(pending.slice(end, stop));
      end = stop;
    }
    if (final && end < pending.length) {
      pieces.push(pending.slice(end));
      end = pending.length;
    }
    this.consumed += end;
    const out: string[] = [];
    for (const piece of pieces) {
      const text = `${this.carry} ${speakable(piece)}`.trim();
      if (letters(text) < MIN_LETTERS) {
        this.carry = text;
        continue;
      }
      this.carry = '';
      out.push(text);
    }
    if (final && letters(this.carry) > 0) {
      out.push(this.carry);
      this.carry = '';
    }
    return out;
  }
}

/** A whole reply as sentences (for replaying a reply that was not spoken in this tab). */
export function sentencesOf(reply: string): string[] {
  return new SentenceStream().finish(reply);
}
