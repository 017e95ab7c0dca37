// Extracted text is cleaned before it is stored or chunked. Invisible and control characters are
// a known prompt-injection carrier (hidden instructions in zero-width, bidi or tag characters), so
// they are removed; whitespace is normalized so chunks are compact and comparable.
// Three of them are writing, not decoration, in their place: the zero-width non-joiner and joiner
// inside a word (Persian "می‌خواهم", Hindi "क्‍ष") or an emoji (👨‍👩‍👧), and the emoji
// presentation selector after an emoji or a keycap's digit (❤️, 1️⃣). There they are kept; alone,
// next to a space, or in runs (a hidden message is a run of invisibles) they are removed.
// Every pattern here is a plain character class or a bounded run, and each invisible character is
// judged by its immediate neighbours: linear on a 10 MB single line.

// C0 controls except tab/newline/CR, DEL, C1 controls.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;
// Soft hyphen, combining grapheme joiner, Arabic letter mark, Hangul fillers, Mongolian vowel
// separator, zero-width space/joiners, LRM/RLM, bidi embeddings and overrides, word joiner and
// invisible operators, bidi isolates, deprecated format characters, BOM/ZWNBSP, variation
// selectors, interlinear annotation marks.
const INVISIBLE =
  /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF9-\uFFFB]/g;
// Tag characters (U+E0000-E007F, "ASCII smuggling") and the supplementary variation selectors.
const INVISIBLE_ASTRAL = /\uDB40[\uDC00-\uDDEF]/g;
const ZWNJ = '\u200C';
const ZWJ = '\u200D';
const EMOJI_PRESENTATION = '\uFE0F';
/** A letter or a mark that shows (a variation selector is a mark, a Hangul filler a letter: neither counts). */
const SHOWN_LETTER = /^[\p{L}\p{M}]$/u;
const INVISIBLE_ONE = new RegExp(`^(?:${INVISIBLE.source}|${INVISIBLE_ASTRAL.source})$`);
/** An emoji just before: the pictograph, with its presentation selector or skin tone. */
const EMOJI_BEFORE = /\p{Extended_Pictographic}(?:\uFE0F|[\u{1F3FB}-\u{1F3FF}])?$/u;
const EMOJI_AFTER = /^\p{Extended_Pictographic}/u;
const PICTOGRAPH_BEFORE = /\p{Extended_Pictographic}$/u;
const KEYCAP_BASE = /^[0-9#*]$/;
const KEYCAP = '\u20E3';
// Lone surrogates (broken UTF-16) would fail later in the database.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
// Spaces of every width become one plain space.
const SPACES = /[\t\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]/g;

/** The code point ending just before `at` (one or two UTF-16 units; '' at the start). */
function codePointBefore(text: string, at: number): string {
  const low = text.charCodeAt(at - 1);
  return low >= 0xdc00 && low <= 0xdfff && at >= 2 ? text.slice(at - 2, at) : text.slice(Math.max(0, at - 1), at);
}
/** The code point starting at `at` ('' at the end). */
function codePointAt(text: string, at: number): string {
  const cp = text.codePointAt(at);
  return cp === undefined ? '' : String.fromCodePoint(cp);
}

const isShownLetter = (c: string) => SHOWN_LETTER.test(c) && !INVISIBLE_ONE.test(c);

/** Whether the invisible character `c` at `at` is part of the writing around it (see the top of this file). */
function keepsItsPlace(c: string, at: number, text: string): boolean {
  if (c === EMOJI_PRESENTATION) {
    return PICTOGRAPH_BEFORE.test(text.slice(Math.max(0, at - 2), at)) || (KEYCAP_BASE.test(text[at - 1] ?? '') && text[at + 1] === KEYCAP);
  }
  if (c !== ZWNJ && c !== ZWJ) return false;
  const before = codePointBefore(text, at);
  const after = codePointAt(text, at + 1);
  if (isShownLetter(before) && isShownLetter(after)) return true;
  // Up to four units before: a pictograph (two) and its selector (one) or skin tone (two).
  return c === ZWJ && EMOJI_BEFORE.test(text.slice(Math.max(0, at - 4), at)) && EMOJI_AFTER.test(after);
}

export function normalizeExtractedText(input: string): string {
  let text = input.normalize('NFC');
  text = text.replace(/\r\n?/g, '\n').replace(/[\u2028\u2029\u0085]/g, '\n');
  text = text.replace(CONTROL, '');
  // Judged against the text as it was, so a run of invisibles is removed whole.
  text = text.replace(INVISIBLE, (c, at: number, all: string) => (keepsItsPlace(c, at, all) ? c : ''));
  text = text.replace(INVISIBLE_ASTRAL, '').replace(LONE_SURROGATE, '');
  text = text.replace(SPACES, ' ');
  text = text.replace(/ {2,}/g, ' ');
  text = text.replace(/ ?\n ?/g, '\n');
  text = text.replace(/\n{3,}/g, '\n\n');
  return text.trim();
}
