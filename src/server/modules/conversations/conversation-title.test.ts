// A new conversation is titled from its first message, cut to fit without breaking a character.
import { describe, expect, it } from 'vitest';
import { titleFromMessage } from './conversations.service';

describe('titleFromMessage', () => {
  it('keeps a short message whole, on one line', () => {
    expect(titleFromMessage('  Where were you\nborn?  ')).toBe('Where were you born?');
  });

  it('cuts a long message to 60 characters with …, never through an emoji (a half is saved as U+FFFD)', () => {
    const title = titleFromMessage(`${'x'.repeat(58)}🌸🌸 more words here`);
    expect(title).toBe(`${'x'.repeat(58)}…`);
    expect(title).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    expect(titleFromMessage('y'.repeat(100))).toBe(`${'y'.repeat(59)}…`);
  });
});
