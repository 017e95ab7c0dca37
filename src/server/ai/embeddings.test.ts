// The embedding client against the loopback fake of OpenAI's embeddings API, which refuses what
// OpenAI refuses: more than 2048 inputs, or more than 300,000 tokens, in one request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeEmbedding, startFakeOpenAI, type FakeOpenAI } from '../../../tests/fakes/openai-fake';
import { createEmbeddingClient, EmbeddingError, MAX_CHARACTERS_PER_REQUEST, MAX_INPUTS_PER_REQUEST, requestGroups } from './embeddings';

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(() => fake.close());

const client = () => createEmbeddingClient({ baseUrl: fake.url, apiKey: 'test-key', model: 'text-embedding-3-small' });

describe('embedding client', () => {
  it("splits a batch larger than OpenAI's 2048 inputs into requests it accepts, and keeps the order", async () => {
    // A document's batch: 64 chunks with their sentences, a list of short lines making ~2,300 inputs.
    const texts = Array.from({ length: 2300 }, (_, i) => `line ${i} of the list, about item${i}`);
    const before = fake.requests.length;
    const vectors = await client().embed(texts);
    const sent = fake.requests.slice(before);
    expect(sent.map((r) => (r.body.input as string[]).length)).toEqual([MAX_INPUTS_PER_REQUEST, 2300 - MAX_INPUTS_PER_REQUEST]);
    expect(vectors).toHaveLength(2300);
    for (const i of [0, 2047, 2048, 2299]) expect(vectors[i]).toEqual(fakeEmbedding(texts[i]!));
  });

  it('splits by characters too, so no request passes 300,000 tokens', async () => {
    const texts = Array.from({ length: 80 }, (_, i) => `chunk${i} ${'word '.repeat(3999)}`); // ~20,000 characters each
    const before = fake.requests.length;
    const vectors = await client().embed(texts);
    const sent = fake.requests.slice(before).map((r) => (r.body.input as string[]).reduce((n, t) => n + t.length, 0));
    expect(sent.length).toBeGreaterThan(1);
    for (const characters of sent) expect(characters).toBeLessThanOrEqual(MAX_CHARACTERS_PER_REQUEST);
    expect(vectors).toEqual(texts.map((t) => fakeEmbedding(t)));
  });

  it("reports the provider's refusal in its own words", async () => {
    // The fake refuses a request over the limit as OpenAI does; the client never sends one, so
    // the refusal is asked for directly.
    const res = await fetch(`${fake.url}/embeddings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', input: Array.from({ length: 2049 }, () => 'x') }),
    });
    expect(res.status).toBe(400);
    fake.set({ failStatus: 429 });
    try {
      await expect(client().embed(['one'])).rejects.toThrow(EmbeddingError);
    } finally {
      fake.set({ failStatus: 0 });
    }
  });

  it('groups nothing for nothing, and a single input longer than the limit alone', () => {
    expect(requestGroups([])).toEqual([]);
    const long = 'x'.repeat(MAX_CHARACTERS_PER_REQUEST + 5);
    expect(requestGroups(['a', long, 'b'])).toEqual([['a'], [long], ['b']]);
  });
});
