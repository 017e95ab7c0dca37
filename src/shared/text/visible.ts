// Whether text shows anything: the spec's "required" and "non-blank" rules (a personality's name,
// a chat message, a title, feedback...) are about what a person sees, and String.trim() removes
// only whitespace. A name of a zero-width space (U+200B), a joiner, a direction mark or a lone
// combining accent passed it and made a card with no visible name.
// Used by the shared schemas (the server's answer) and by the web forms (their inline check), so
// both call the same text blank. Browser-safe, no dependencies.

/**
 * A character that shows something by itself: not whitespace, a control, a format character
 * (\p{Cf}: zero-width space and joiners, direction marks, embeddings, overrides and isolates, BOM,
 * soft hyphen, tag characters), a lone surrogate, a default-ignorable character (Hangul fillers,
 * variation selectors, the combining grapheme joiner), or a combining mark (which shows only on a
 * base letter: a mark with no letter before it is an accent on nothing). U+2800, the blank Braille
 * pattern, is a symbol drawn as an empty cell: it is the one listed by hand.
 */
const SHOWN = /[^\p{White_Space}\p{Cc}\p{Cf}\p{Cs}\p{M}\p{Default_Ignorable_Code_Point}\u2800]/u;

/**
 * true when `text` has at least one character that shows. Letters with their marks ("é" typed as
 * e + U+0301), emoji joined by ZWJ (👩‍👩‍👧) and words written with a ZWNJ (Persian "می‌خواهم") do.
 */
export function hasVisibleText(text: string | null | undefined): boolean {
  return typeof text === 'string' && SHOWN.test(text);
}

/** Empty, or nothing but whitespace, invisible characters and marks with no letter to sit on. */
export function isBlank(text: string | null | undefined): boolean {
  return !hasVisibleText(text);
}

/**
 * Bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069). In a name they
 * reorder what follows ("Albert \u202Enietsnie" shows as "Albert einstein") and, left open, the
 * text around the name where it is shown. The direction marks (LRM, RLM, ALM), which reorder
 * nothing, stay: right-to-left names use them next to digits and punctuation.
 */
const BIDI_EMBEDDING = /[\u202A-\u202E\u2066-\u2069]/g;

/** `text` without bidirectional embeddings, overrides and isolates; nothing else changes. */
export function withoutBidiOverrides(text: string): string {
  return text.replace(BIDI_EMBEDDING, '');
}

/**
 * A name (a personality's, a person's display name, an imported card's) as it is saved: the
 * bidirectional overrides and isolates removed, then trimmed. Whether it is blank is for the
 * caller to judge with isBlank (each rule has its own message).
 */
export function cleanName(name: string): string {
  return withoutBidiOverrides(name).trim();
}
