// Conversation starters' vectors: embedded once per personality and text, shared by those asking
// together, never kept when the embedding failed, and bounded.
import { describe, expect, it } from 'vitest';
import { StarterVectors } from './starter-vectors';

function countingEmbedder() {
  const calls: string[] = [];
  const embed = async (text: string) => {
    calls.push(text);
    return [text.length, calls.length];
  };
  return { calls, embed };
}

describe('starter vectors', () => {
  it('embeds a starter once for its personality; another personality\'s same starter is its own', async () => {
    const kept = new StarterVectors();
    const { calls, embed } = countingEmbedder();
    const first = await kept.get('p1', 'Tell me about myself, Ada.', embed);
    expect(await kept.get('p1', 'Tell me about myself, Ada.', embed)).toEqual(first);
    expect(calls).toEqual(['Tell me about myself, Ada.']);
    await kept.get('p2', 'Tell me about myself, Ada.', embed);
    expect(calls).toHaveLength(2);
  });

  it('shares one embedding between people asking at once', async () => {
    const kept = new StarterVectors();
    let release!: () => void;
    let calls = 0;
    const embed = (text: string) =>
      new Promise<number[]>((resolve) => {
        calls++;
        release = () => resolve([text.length]);
      });
    const asking = Array.from({ length: 5 }, () => kept.get('p1', 'What are you most proud of?', embed));
    release();
    expect(await Promise.all(asking)).toEqual(Array.from({ length: 5 }, () => [27]));
    expect(calls).toBe(1);
  });

  it('keeps no failure: the next asker embeds again', async () => {
    const kept = new StarterVectors();
    let fail = true;
    const embed = async () => {
      if (fail) throw new Error('model down');
      return [1];
    };
    await expect(kept.get('p1', 'What advice would you give me?', embed)).rejects.toThrow('model down');
    expect(kept.size).toBe(0);
    fail = false;
    expect(await kept.get('p1', 'What advice would you give me?', embed)).toEqual([1]);
  });

  it('keeps at most its capacity, dropping the least recently asked', async () => {
    const kept = new StarterVectors(2);
    const { calls, embed } = countingEmbedder();
    await kept.get('p1', 'a', embed);
    await kept.get('p1', 'b', embed);
    await kept.get('p1', 'a', embed); // a is now the most recent
    await kept.get('p1', 'c', embed); // b goes
    expect(kept.size).toBe(2);
    await kept.get('p1', 'a', embed);
    expect(calls).toEqual(['a', 'b', 'c']);
    await kept.get('p1', 'b', embed);
    expect(calls).toEqual(['a', 'b', 'c', 'b']);
  });
});
