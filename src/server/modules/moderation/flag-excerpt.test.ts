// A flag's excerpt is the part of the text that was flagged, not the text's start: with the
// offline classifier (every sentence scored) and with a remote model (a few calls at most).
import { describe, expect, it } from 'vitest';
import { classifyOffline } from '../../ai/moderation/offline-classifier';
import type { ModerationResult } from '../../ai/moderation/moderation-types';
import { EXCERPT_CHARS, MAX_REMOTE_CALLS, flaggedExcerpt, splitUnits } from './flag-excerpt';

const HARMFUL = 'All immigrants are vermin and should go back where they came from.';

/** A benign memoir of about `chars` characters, one plain sentence after another. */
function benignMemoir(chars: number): string {
  const sentences = [
    'My grandmother kept a small garden behind the house on Elm Street.',
    'Every spring she planted tomatoes, beans and a row of sunflowers along the fence.',
    'We walked to the market on Saturdays and she bargained for the ripest peaches.',
    'In the evenings my grandfather read the newspaper aloud while the radio played softly.',
    'The winters were long, and the whole street skated on the frozen pond.',
  ];
  const paragraphs: string[] = [];
  let text = '';
  for (let i = 0; text.length < chars; i++) {
    paragraphs.push(`${sentences[i % sentences.length]} ${sentences[(i + 2) % sentences.length]}`);
    text = paragraphs.join('\n\n');
  }
  return text;
}

const offline = { classify: async (text: string) => classifyOffline(text, { threshold: 0.5 }), cheap: true };

describe('the excerpt of a flagged text', () => {
  it('is the flagged sentence with a little context, not the opening paragraphs (offline classifier)', async () => {
    const memoir = `${benignMemoir(3_400)}\n\n${HARMFUL}\n\nThat is what the letter said.`;
    expect(memoir.length).toBeGreaterThan(3_400);
    const verdict = classifyOffline(memoir, { threshold: 0.5 });
    expect(verdict.categories.map((c) => c.type)).toContain('hate');
    const excerpt = await flaggedExcerpt(memoir, verdict, offline);
    expect(excerpt).toContain(HARMFUL);
    expect(excerpt).toContain('That is what the letter said.');
    expect(excerpt.startsWith('…')).toBe(true);
    expect(excerpt.length).toBeLessThanOrEqual(EXCERPT_CHARS);
    expect(excerpt).not.toContain('My grandmother kept a small garden behind the house on Elm Street. Every spring');
  });

  it('finds the flagged sentence in the middle of a long message', async () => {
    const message = `${benignMemoir(900)} You are a worthless idiot and nobody cares. ${benignMemoir(900)}`;
    const excerpt = await flaggedExcerpt(message, classifyOffline(message, { threshold: 0.5 }), offline);
    expect(excerpt).toContain('You are a worthless idiot');
    expect(excerpt.length).toBeLessThanOrEqual(EXCERPT_CHARS);
  });

  it('asks a remote model only a few times to narrow a 4,200-character window down to the flagged sentence', async () => {
    const window = `${benignMemoir(4_100)} ${HARMFUL}`;
    const calls: string[] = [];
    const remote = {
      cheap: false,
      // Flags what the offline rules would not see: only the marker sentence counts.
      classify: async (text: string): Promise<ModerationResult> => {
        calls.push(text);
        return text.includes('go back where they came from') ? { categories: [{ type: 'hate', confidence: 0.93 }], confidence: 0.93 } : { categories: [], confidence: 0.01 };
      },
    };
    const excerpt = await flaggedExcerpt(window, { categories: [{ type: 'hate', confidence: 0.93 }], confidence: 0.93 }, remote);
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.length).toBeLessThanOrEqual(MAX_REMOTE_CALLS);
    expect(excerpt).toContain(HARMFUL);
    expect(excerpt.length).toBeLessThanOrEqual(EXCERPT_CHARS);
  });

  it('keeps a short text whole, and a text with nothing flagged in it (a plain report) from its start', async () => {
    expect(await flaggedExcerpt('  You are   a worthless idiot. ', { categories: [{ type: 'harassment', confidence: 0.85 }], confidence: 0.85 }, offline)).toBe(
      'You are a worthless idiot.',
    );
    const long = benignMemoir(2_000);
    const excerpt = await flaggedExcerpt(long, { categories: [], confidence: 0 }, offline);
    expect(excerpt.startsWith('My grandmother kept')).toBe(true);
    expect(excerpt.length).toBe(EXCERPT_CHARS);
  });

  it('splits at sentence ends and line breaks, and a long run without punctuation into pieces', () => {
    const text = 'One. Two? "Three!" Four\nFive ' + 'word '.repeat(100);
    const units = splitUnits(text).map((u) => text.slice(u.start, u.end));
    expect(units.slice(0, 4)).toEqual(['One.', 'Two?', '"Three!"', 'Four']);
    expect(units.slice(4).every((u) => u.length <= 240)).toBe(true);
    expect(units.slice(4).join(' ')).toBe(`Five ${'word '.repeat(100).trim()}`);
  });

  it('cuts between characters, never through an emoji: the start of a text and a flagged part too long to show whole', async () => {
    const lone = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    // Emoji from the first character, 13 code units a word: a cut at 499 falls inside one.
    const emojiText = (chars: number) => '😀😀😀😀😀😀 '.repeat(Math.ceil(chars / 13));
    const start = await flaggedExcerpt(emojiText(2_000), { categories: [], confidence: 0 }, offline);
    expect(start.length).toBeLessThanOrEqual(EXCERPT_CHARS);
    expect(lone.test(start)).toBe(false);
    // A remote model that flags every half: after its calls the flagged part is still long, so it is cut.
    const everything = { cheap: false, classify: async (): Promise<ModerationResult> => ({ categories: [{ type: 'hate', confidence: 0.9 }], confidence: 0.9 }) };
    const cut = await flaggedExcerpt(emojiText(48_000), { categories: [{ type: 'hate', confidence: 0.9 }], confidence: 0.9 }, everything);
    expect(cut.length).toBeLessThanOrEqual(EXCERPT_CHARS);
    expect(cut.endsWith('…')).toBe(true);
    expect(lone.test(cut)).toBe(false);
    // A run without spaces is cut into units between characters too.
    const run = `x${'😀'.repeat(400)}`;
    const units = splitUnits(run).map((u) => run.slice(u.start, u.end));
    expect(units.join('')).toBe(run);
    expect(units.some((u) => lone.test(u))).toBe(false);
  });
});
