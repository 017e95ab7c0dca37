// Markdown as plain text (runs in the extraction worker).
/**
 * Markdown read as prose: fences, heading marks, quote marks and rules go; the rest is already
 * readable text. Only line-anchored patterns, so a hostile 10 MB line stays linear.
 */
export function markdownToText(md: string): string {
  return md
    .replace(/^ {0,3}(```|~~~)[^\n]*$/gm, '')
    .replace(/^ {0,3}#{1,6}[ \t]+/gm, '')
    .replace(/^ {0,3}>[ \t]?/gm, '')
    .replace(/^ {0,3}([-*_])([ \t]*\1){2,}[ \t]*$/gm, '');
}
