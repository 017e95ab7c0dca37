// Which character encoding a text document is in, and its text. Files come from Notepad and old
// editors as often as from modern ones, and web pages name their charset outside the bytes, so:
//   1. a byte order mark (UTF-8, UTF-16 LE/BE) decides, as in browsers;
//   2. else a charset named outside the bytes (a Content-Type header) or, for HTML, by a <meta>
//      in its first 1024 bytes;
//   3. else UTF-8 when the bytes are valid UTF-8 (as before);
//   4. else Windows-1252, the legacy encoding of Western European text ("ANSI" in Notepad) — but
//      only when the result reads like Western text. Chinese (GBK, Big5), Japanese (Shift_JIS),
//      Cyrillic (Windows-1251) and the like cannot be told apart reliably without a declaration:
//      read as Windows-1252 they become runs of accented letters ("ÄãºÃ"), and such a file is
//      refused rather than stored as mojibake that would only look like it worked.
// Binary is never text: NUL bytes (outside UTF-16), or more than 1 in 50 control characters.
// UTF-32 is not recognised (it is all but unused for files; its BOM reads as UTF-16 and the
// NULs then refuse it).

export const UTF8 = 'utf-8';
const WINDOWS_1252 = 'windows-1252';

/** Bytes looked at for a BOM and, in HTML, a <meta charset> (as far as browsers look). */
const PRESCAN_BYTES = 1024;

/** The encoding's canonical name (as TextDecoder names it), or undefined for a label it does not know. */
export function encodingOfLabel(label: string | undefined): string | undefined {
  if (!label) return undefined;
  try {
    return new TextDecoder(label.trim()).encoding;
  } catch {
    return undefined;
  }
}

/** The charset parameter of a Content-Type value, when it names an encoding TextDecoder knows. */
export function charsetFromContentType(contentType: string): string | undefined {
  const match = /;\s*charset\s*=\s*["']?([^"';\s]+)/i.exec(contentType);
  return encodingOfLabel(match?.[1]);
}

/** `<meta charset=...>` or `<meta http-equiv="content-type" content="...; charset=...">` near the top. */
export function charsetFromHtmlHead(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.subarray(0, PRESCAN_BYTES)).toString('latin1');
  const match = /<meta\b[^>]*?\bcharset\s*=\s*["']?\s*([^"'\s;/>]+)/i.exec(head);
  const encoding = encodingOfLabel(match?.[1]);
  // Bytes that reached an ASCII <meta> are not UTF-16, whatever it says (browsers read UTF-8).
  return encoding?.startsWith('utf-16') ? UTF8 : encoding;
}

function encodingOfBom(head: Uint8Array): string | undefined {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return UTF8;
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  return undefined;
}

export interface EncodingHints {
  /** A charset named outside the bytes (canonical name), e.g. from a Content-Type header. */
  declared?: string;
  /** The bytes are HTML: a <meta charset> counts. */
  html?: boolean;
}

/**
 * Finds the encoding of text that streams past in chunks, in one linear pass and constant memory
 * (it runs on uploads as they arrive). finish() answers the encoding, or undefined when the bytes
 * are not text.
 */
export class TextEncodingSniffer {
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private check: EncodingCheck | undefined;

  constructor(private readonly hints: EncodingHints = {}) {}

  push(chunk: Uint8Array): void {
    if (this.check) return this.check.push(chunk);
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    if (this.pendingBytes >= PRESCAN_BYTES) this.decide();
  }

  finish(): string | undefined {
    if (!this.check) this.decide();
    return this.check!.finish();
  }

  /** Once the first bytes are in: the BOM or a declaration fix the encoding, else it is measured. */
  private decide(): void {
    const head = Buffer.concat(this.pending);
    const bom = encodingOfBom(head);
    const named = bom ?? this.hints.declared ?? (this.hints.html ? charsetFromHtmlHead(head) : undefined);
    // A UTF-8 BOM means strictly UTF-8. UTF-8 merely declared is often wrong (a server default in
    // front of a Windows-1252 page), so the bytes are measured as if nothing were declared.
    if (bom === UTF8) this.check = new MeasuredCheck(true);
    else if (named && named !== UTF8) this.check = new DecodedCheck(named);
    else this.check = new MeasuredCheck(false);
    for (const chunk of this.pending) this.check.push(chunk);
    this.pending = [];
  }
}

interface EncodingCheck {
  push(chunk: Uint8Array): void;
  finish(): string | undefined;
}

/** Control characters other than tab, line feed, form feed and carriage return. */
function isControl(code: number): boolean {
  return (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0c && code !== 0x0d) || (code >= 0x7f && code < 0xa0);
}

/** More than 1 in 50 characters are control characters: binary, not text. */
function tooManyControls(controls: number, total: number): boolean {
  return controls * 50 > total;
}

/** A known encoding: decodes as it goes and judges the characters. */
class DecodedCheck implements EncodingCheck {
  private readonly decoder: TextDecoder;
  private chars = 0;
  private bad = 0;
  private nul = false;

  constructor(private readonly encoding: string) {
    this.decoder = new TextDecoder(encoding);
  }

  push(chunk: Uint8Array): void {
    if (!this.nul) this.count(this.decoder.decode(chunk, { stream: true }));
  }

  finish(): string | undefined {
    this.count(this.decoder.decode());
    return this.nul || tooManyControls(this.bad, this.chars) ? undefined : this.encoding;
  }

  private count(text: string): void {
    this.chars += text.length;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code === 0) this.nul = true;
      // U+FFFD stands for bytes that are not valid in the encoding.
      if (isControl(code) || code === 0xfffd) this.bad++;
    }
  }
}

/**
 * Nothing names the encoding: strict UTF-8 validity as before, and alongside, what Windows-1252
 * would make of the bytes (control characters; accented letters in runs, see isWestern).
 */
class MeasuredCheck implements EncodingCheck {
  private readonly utf8 = new TextDecoder(UTF8, { fatal: true });
  private utf8Ok = true;
  private nul = false;
  private total = 0;
  private controls = 0;
  private highBytes = 0;
  private highLetters = 0;
  private lettersInLongRuns = 0;
  private runLetters = 0;
  /** Bytes in well-formed UTF-8 multibyte sequences, and the state of the one under way. */
  private utf8SequenceBytes = 0;
  private continuationsDue = 0;
  private sequenceLength = 0;

  constructor(private readonly utf8Only: boolean) {}

  push(chunk: Uint8Array): void {
    if (this.nul) return;
    if (chunk.includes(0)) {
      this.nul = true;
      return;
    }
    if (this.utf8Ok) {
      try {
        this.utf8.decode(chunk, { stream: true });
      } catch {
        this.utf8Ok = false;
      }
    }
    if (!this.utf8Only) this.measure(chunk);
  }

  finish(): string | undefined {
    if (this.nul) return undefined;
    if (this.utf8Ok) {
      try {
        this.utf8.decode(); // a sequence cut off by the end of the file
        return UTF8;
      } catch {
        this.utf8Ok = false;
      }
    }
    if (this.utf8Only) return undefined;
    this.endRun();
    return !tooManyControls(this.controls, this.total) && !this.isDamagedUtf8() && this.isWestern() ? WINDOWS_1252 : undefined;
  }

  private measure(chunk: Uint8Array): void {
    this.total += chunk.length;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i]!;
      this.followUtf8(byte);
      if (byte < 0x80) {
        if (isControl(byte)) this.controls++;
        this.endRun();
        continue;
      }
      this.highBytes++;
      if (UNDEFINED_IN_1252.has(byte)) {
        this.controls++;
      } else if (isLetterIn1252(byte)) {
        this.runLetters++;
      }
    }
  }

  private followUtf8(byte: number): void {
    if (this.continuationsDue > 0) {
      if (byte >= 0x80 && byte <= 0xbf) {
        if (--this.continuationsDue === 0) this.utf8SequenceBytes += this.sequenceLength;
        return;
      }
      this.continuationsDue = 0;
    }
    if (byte >= 0xc2 && byte <= 0xdf) this.sequenceLength = 2;
    else if (byte >= 0xe0 && byte <= 0xef) this.sequenceLength = 3;
    else if (byte >= 0xf0 && byte <= 0xf4) this.sequenceLength = 4;
    else return;
    this.continuationsDue = this.sequenceLength - 1;
  }

  /**
   * Mostly well-formed UTF-8 with a flaw (cut short, a stray byte): corrupt UTF-8, not Windows-1252
   * (Western text almost never has an accented capital followed by a symbol, as "Ã©" for "é").
   */
  private isDamagedUtf8(): boolean {
    return this.utf8SequenceBytes * 2 > this.highBytes;
  }

  private endRun(): void {
    this.highLetters += this.runLetters;
    if (this.runLetters >= 3) this.lettersInLongRuns += this.runLetters;
    this.runLetters = 0;
  }

  /**
   * Western European words carry an accented letter here and there ("café", "Grüße"); other
   * languages' legacy encodings read as Windows-1252 give words made only of them ("Ïðèâåò").
   * So: at most half the accented letters may stand three or more in a row.
   */
  private isWestern(): boolean {
    return this.lettersInLongRuns * 2 <= this.highLetters;
  }
}

/** Bytes Windows-1252 leaves undefined (they decode to C1 control characters). */
const UNDEFINED_IN_1252 = new Set([0x81, 0x8d, 0x8f, 0x90, 0x9d]);

/** Š Œ Ž š œ ž Ÿ ª µ º and À–ÿ except × and ÷. */
function isLetterIn1252(byte: number): boolean {
  if (byte >= 0xc0) return byte !== 0xd7 && byte !== 0xf7;
  return byte === 0x8a || byte === 0x8c || byte === 0x8e || byte === 0x9a || byte === 0x9c || byte === 0x9e || byte === 0x9f || byte === 0xaa || byte === 0xb5 || byte === 0xba;
}

/** The encoding of complete bytes (see TextEncodingSniffer), or undefined when they are not text. */
export function detectEncoding(bytes: Uint8Array, hints?: EncodingHints): string | undefined {
  const sniffer = new TextEncodingSniffer(hints);
  sniffer.push(bytes);
  return sniffer.finish();
}

/** The text of bytes in `encoding`, without its BOM. */
export function decodeText(bytes: Uint8Array, encoding: string): string {
  const decoder = new TextDecoder(encoding);
  // Streaming on purpose: Node's one-call path decodes windows-1252 as Latin-1 (0x80 becomes
  // U+0080, not "€"; nodejs/node#56542); the streaming path goes through ICU and is right.
  return decoder.decode(bytes, { stream: true }) + decoder.decode();
}
