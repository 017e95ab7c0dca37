// The placeholders of character-chat cards, filled in once at import so every imported text reads
// as it will be used: {{char}} and <BOT> become the character's name; {{user}} and <USER> become
// "you" (Kindred does not name the person; the same rule the greeting has always had when shown,
// see persona-context.ts), and their possessive "{{user}}'s" becomes "your" rather than "you's".
// Case-insensitive, as SillyTavern replaces them.

const USER_POSSESSIVE = /(?:\{\{user\}\}|<user>)['\u2019]s\b/gi;
const USER = /\{\{user\}\}|<user>/gi;
const CHAR = /\{\{char\}\}|<bot>/gi;

export function fillPlaceholders(text: string, name: string): string {
  // A function replacement, so "$&" or "$1" in a name is taken literally.
  return text
    .replace(CHAR, () => name)
    .replace(USER_POSSESSIVE, 'your')
    .replace(USER, 'you');
}
