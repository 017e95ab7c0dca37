// The vectors of conversation starters, kept once embedded. Most visitors' first question is a
// starter they clicked, and embedding a question is most of what the first token waits for with
// the embedded model (~15-45 ms on 2 cores, longer when many ask at once): a starter asked again
// costs nothing, and visitors clicking the same one together share one embedding.
//
// Keyed by personality and text, and only for the texts the personality's starters list shows
// (the caller checks): what a faster answer reveals is that someone who may chat with this
// personality clicked one of its starters lately, never anything a person typed.

/** Starters kept (four a personality): a few hundred personalities' worth, about 2 KB each. */
const DEFAULT_CAPACITY = 1024;

export class StarterVectors {
  private readonly entries = new Map<string, Promise<number[]>>();

  constructor(private readonly capacity = DEFAULT_CAPACITY) {}

  /** The starter's vector, embedded by `embed` only when not kept (a failure is not kept). */
  get(personalityId: string, text: string, embed: (text: string) => Promise<number[]>): Promise<number[]> {
    const key = `${personalityId}\n${text}`;
    const kept = this.entries.get(key);
    if (kept) {
      // Most recently used last.
      this.entries.delete(key);
      this.entries.set(key, kept);
      return kept;
    }
    const pending = embed(text);
    this.entries.set(key, pending);
    pending.catch(() => {
      if (this.entries.get(key) === pending) this.entries.delete(key);
    });
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    return pending;
  }

  get size(): number {
    return this.entries.size;
  }
}
