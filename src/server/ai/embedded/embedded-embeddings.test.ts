// The embedded model's thread with its real model: questions asked at the same moment (embedded
// together in one pass) each get the vector of their own text, the same as when asked alone, and a
// question asked while a document is being embedded is answered before the document is done, and
// a document's request that is cancelled (a stopping server) ends at once.
import { afterAll, describe, expect, it } from 'vitest';
import { createEmbeddedEmbeddings } from './embedded-embeddings';
import { cosine } from '../../modules/documents/float-vectors';

const model = createEmbeddedEmbeddings();
afterAll(() => model.close());

const QUESTIONS = [
  'Where did you grow up?',
  'What did your father do for a living?',
  'How much did you pay for your first horse?',
  'Which novel do you love most?',
  'When did you move to the island?',
  'What is the boat called?',
];

describe('the embedded embedding model', () => {
  it('questions asked together each get the vector of their own text', async () => {
    const alone: number[][] = [];
    for (const q of QUESTIONS) alone.push((await model.embed([q]))[0]!);
    // Distinct enough that a vector handed to the wrong question would be seen.
    for (let i = 0; i < alone.length; i++) for (let j = i + 1; j < alone.length; j++) expect(cosine(alone[i]!, alone[j]!)).toBeLessThan(0.95);
    const together = await Promise.all(QUESTIONS.map(async (q) => (await model.embed([q]))[0]!));
    together.forEach((v, i) => {
      expect(v).toHaveLength(512);
      expect(cosine(v, alone[i]!)).toBeGreaterThan(0.9999);
    });
  }, 60_000);

  it("a question asked while a document is embedded is answered before the document's vectors", async () => {
    await model.warm();
    const chunks = Array.from({ length: 24 }, (_, i) => `Chapter ${i}. ${'The boat rocked gently in the harbour while the gulls circled overhead. '.repeat(8)}`);
    const finished: string[] = [];
    const document = model.embed(chunks).then((v) => {
      finished.push('document');
      return v;
    });
    await new Promise((r) => setTimeout(r, 20));
    const question = model.embed([QUESTIONS[0]!]).then((v) => {
      finished.push('question');
      return v;
    });
    const [docVectors, questionVectors] = await Promise.all([document, question]);
    expect(finished).toEqual(['question', 'document']);
    expect(docVectors).toHaveLength(24);
    expect(questionVectors).toHaveLength(1);
    // The document's vectors are in the order of its texts: the repeated chapters are alike, and
    // each is nearest its own text embedded alone.
    const [first] = await model.embed([chunks[0]!]);
    expect(cosine(docVectors[0]!, first!)).toBeGreaterThan(0.9999);
  }, 120_000);

  it('a cancelled request rejects at once with the reason, and the model answers the next question with its own vector', async () => {
    await model.warm();
    const chunks = Array.from({ length: 64 }, (_, i) => `Part ${i}. ${'The mill wheel turned slowly in the cold river water all winter long. '.repeat(10)}`);
    const stop = new AbortController();
    const settled: string[] = [];
    const document = model.embed(chunks, stop.signal).then(
      () => settled.push('document resolved'),
      (e: Error) => settled.push(`document rejected: ${e.message}`),
    );
    await new Promise((r) => setTimeout(r, 20));
    stop.abort(new Error('server stopping'));
    // Rejected on the abort itself, not when the worker's pass in flight (or the whole document) ends.
    await Promise.resolve();
    await Promise.resolve();
    expect(settled).toEqual(['document rejected: server stopping']);
    await document;
    // The worker's late answer for the cancelled request is dropped: the next request gets its own.
    const [alone] = await model.embed([QUESTIONS[1]!]);
    const [again] = await model.embed([QUESTIONS[1]!]);
    expect(alone).toHaveLength(512);
    expect(cosine(alone!, again!)).toBeGreaterThan(0.9999);
    // Already aborted: no request at all.
    await expect(model.embed(['too late'], stop.signal)).rejects.toThrow('server stopping');
  }, 120_000);
});
