// Extracted text is cleaned before it is stored or chunked. Invisible and control characters are
// a known prompt-injection carrier (hidden instructions in zero-width, bidi or tag characters), so
// they are removed; whitespace is normalized so chunks are compact and comparable.
// Every pattern here is a plain character class or a bounded run: linear on a 10 MB single line.

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
// Lone surrogates (broken UTF-16) would fail later in the database.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
// Spaces of every width become one plain space.
const SPACES = /[\t\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]/g;

export function normalizeExtractedText(input: string): string {
  let text = input.normalize('NFC');
  text = text.replace(/\r\n?/g, '\n').replace(/[\u2028\u2029\u0085]/g, '\n');
  text = text.replace(CONTROL, '').replace(INVISIBLE, '').replace(INVISIBLE_ASTRAL, '').replace(LONE_SURROGATE, '');
  text = text.replace(SPACES, ' ');
  text = text.replace(/ {2,}/g, ' ');
  text = text.replace(/ ?\n ?/g, '\n');
  text = text.replace(/\n{3,}/g, '\n\n');
  return text.trim();
}
