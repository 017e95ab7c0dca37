// Every required or non-blank text rule of the API calls text of invisible characters only blank,
// with the message it gives for empty text; optional text of invisible characters only is cleared.
import { describe, expect, it } from 'vitest';
import type { ZodType } from 'zod';
import { messages } from '../messages';
import { createPersonalitySchema, updatePersonalitySchema } from './personality';
import { chatRequestSchema, createConversationSchema, previewRequestSchema, renameConversationSchema } from './conversations';
import { feedbackSchema } from './feedback';
import { reportSchema, reviewFlagSchema } from './moderation';
import { addShareSchema, createPublicRequestSchema } from './sharing';

const INVISIBLE = ['\u200B', '\u200D', '\u200F', '\u0301', ' \uFEFF\u00AD\u2060 ', '\u202E', '\u3164'];

function firstMessage(schema: ZodType, input: unknown): string | null {
  const parsed = schema.safeParse(input);
  return parsed.success ? null : parsed.error.issues[0]!.message;
}

describe('required text of invisible characters only is refused with the empty-text message', () => {
  it.each(INVISIBLE.map((s) => [JSON.stringify(s), s]))('%s', (_label, text) => {
    expect(firstMessage(createPersonalitySchema, { name: text })).toBe(messages.personality.nameRequired);
    expect(firstMessage(updatePersonalitySchema, { name: text })).toBe(messages.personality.nameRequired);
    expect(firstMessage(chatRequestSchema, { message: text })).toBe(messages.chat.messageRequired);
    expect(firstMessage(previewRequestSchema, { message: text })).toBe(messages.chat.messageRequired);
    expect(firstMessage(renameConversationSchema, { title: text })).toBe(messages.chat.titleRequired);
    expect(firstMessage(createConversationSchema, { title: text })).toBe(messages.chat.titleRequired);
    expect(firstMessage(feedbackSchema, { feedback: text })).toBe(messages.feedback.empty);
    expect(firstMessage(reportSchema, { content: text })).toBe('Nothing to report');
    expect(firstMessage(addShareSchema, { email: text })).toBe(messages.sharing.emailRequired);
  });

  it('keeps the messages for empty text as they were', () => {
    expect(firstMessage(createPersonalitySchema, { name: '' })).toBe(messages.personality.nameRequired);
    expect(firstMessage(chatRequestSchema, { message: '  ' })).toBe(messages.chat.messageRequired);
    expect(firstMessage(feedbackSchema, { feedback: '' })).toBe(messages.feedback.empty);
  });
});

describe('optional text of invisible characters only is cleared (null)', () => {
  it('personality fields, the agent id, the public-request message and admin notes', () => {
    const created = createPersonalitySchema.parse({ name: 'Ada', description: '\u200B', agentId: '\u200D\u200F', greeting: '\uFEFF' });
    expect(created).toMatchObject({ description: null, agentId: null, greeting: null });
    expect(createPublicRequestSchema.parse({ message: '\u200B \u0301' }).message).toBeNull();
    expect(reviewFlagSchema.parse({ status: 'approved', adminNotes: '\u2060' }).adminNotes).toBeNull();
  });
});

describe('real writing is kept exactly', () => {
  it.each([
    ['a family emoji joined by ZWJ', '👩‍👩‍👧'],
    ['a Persian word with a ZWNJ', 'می\u200Cخواهم'],
    ['an accent typed as a combining mark', 'Jose\u0301'],
    ['Hebrew with a right-to-left mark', '\u200Fשלום'],
  ])('%s', (_label, text) => {
    expect(createPersonalitySchema.parse({ name: text }).name).toBe(text);
    expect(feedbackSchema.parse({ feedback: text }).feedback).toBe(text);
    expect(renameConversationSchema.parse({ title: text }).title).toBe(text);
    expect(chatRequestSchema.parse({ message: text }).message).toBe(text.normalize('NFC'));
    expect(createPersonalitySchema.parse({ name: 'x', agentId: text }).agentId).toBe(text);
  });
});

describe('a personality name is saved without bidi overrides and isolates', () => {
  it('"Albert \\u202Enietsnie" cannot show as "Albert einstein"', () => {
    expect(createPersonalitySchema.parse({ name: 'Albert \u202Enietsnie' }).name).toBe('Albert nietsnie');
    expect(updatePersonalitySchema.parse({ name: ' \u2066Marie\u2069 \u202DCurie\u202C ' }).name).toBe('Marie Curie');
  });
});
