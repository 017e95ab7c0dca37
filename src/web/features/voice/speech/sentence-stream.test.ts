import { describe, expect, it } from 'vitest';
import { SentenceStream, sentencesOf, speakable } from '../../../../shared/sentence-stream';

/** Feeds a reply word by word, as it streams, collecting what would be spoken and when. */
function stream(reply: string) {
  const s = new SentenceStream();
  const spoken: { sentence: string; afterChars: number }[] = [];
  let text = '';
  for (const piece of reply.split(/(?<= )/)) {
    text += piece;
    for (const sentence of s.push(text)) spoken.push({ sentence, afterChars: text.length });
  }
  for (const sentence of s.finish(text)) spoken.push({ sentence, afterChars: text.length });
  return spoken;
}

describe('sentences to speak from a streaming reply', () => {
  it('hands out each sentence once, as soon as it is complete', () => {
    const reply = 'I was born in London in 1815. My father was Lord Byron! Did you know that? I never met him';
    const spoken = stream(reply);
    expect(spoken.map((s) => s.sentence)).toEqual(['I was born in London in 1815.', 'My father was Lord Byron!', 'Did you know that?', 'I never met him']);
    // The first sentence is out long before the reply ends.
    expect(spoken[0]!.afterChars).toBeLessThan(reply.length / 2);
  });

  it('never speaks DO_NOT_READ text, even while the block is still open mid-stream', () => {
    const reply = 'Here is the answer. [DO_NOT_READ]from notes.txt (chunk 2). Another citation.[/DO_NOT_READ] And that is all there is to say.';
    const spoken = stream(reply).map((s) => s.sentence);
    expect(spoken).toEqual(['Here is the answer.', 'And that is all there is to say.']);
    expect(spoken.join(' ')).not.toMatch(/notes|citation|DO_NOT/);
  });

  it('joins a piece too short to say alone to the next one, and drops Markdown and links', () => {
    expect(sentencesOf('Yes. **Absolutely** right, my [friend](https://example.com).\n\n## Notes\n- first point here')).toEqual([
      'Yes. Absolutely right, my friend.',
      'Notes first point here',
    ]);
    expect(speakable('See https://example.com/x and `code`')).toBe('See and code');
  });

  it('says nothing for a reply with nothing speakable', () => {
    expect(sentencesOf('[DO_NOT_READ]only a citation[/DO_NOT_READ]')).toEqual([]);
    expect(sentencesOf('')).toEqual([]);
  });

  it('ends Chinese and Japanese sentences at 。！？, written with no space after', () => {
    const stream = new SentenceStream();
    // Streamed in pieces: each sentence is handed out as soon as its stop arrives.
    expect(stream.push('我住在长江头，君住在长江尾。日日')).toEqual(['我住在长江头，君住在长江尾。']);
    expect(stream.push('我住在长江头，君住在长江尾。日日思君不见君，共饮长江水！此水')).toEqual(['日日思君不见君，共饮长江水！']);
    expect(stream.finish('我住在长江头，君住在长江尾。日日思君不见君，共饮长江水！此水几时休？')).toEqual(['此水几时休？']);
  });
});

