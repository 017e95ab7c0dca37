// The embedded model's schedule: questions that wait while a pass runs share the next pass, each
// gets its own vector back, questions go before a document's remaining texts, passes keep to their
// limits, and a text that breaks a shared pass fails only its own request.
import { describe, expect, it } from 'vitest';
import { createEmbedQueue, type EmbedQueueLimits } from './embed-queue';

/** A model whose passes finish when the test says, recording what each pass held. */
function controlledModel(fails?: (text: string) => boolean) {
  const passes: string[][] = [];
  const waiting: (() => void)[] = [];
  const pass = (texts: string[]) =>
    new Promise<number[][]>((resolve, reject) => {
      passes.push(texts);
      waiting.push(() => (fails && texts.some(fails) ? reject(new Error('the model failed')) : resolve(texts.map(vectorOf))));
    });
  /** Finishes the oldest running pass and lets the queue choose its next one. */
  async function finishPass() {
    waiting.shift()!();
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
  }
  return { pass, passes, finishPass };
}

/** A text's vector: its length and first character, so a vector tells whose it is. */
function vectorOf(text: string): number[] {
  return [text.length, text.charCodeAt(0), 1];
}

function unit(v: number[]): number[] {
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

function expectVectors(got: { dimensions: number; vectors: Float32Array }, texts: string[]) {
  expect(got.dimensions).toBe(3);
  expect(got.vectors.length).toBe(texts.length * 3);
  texts.forEach((t, i) => {
    const want = unit(vectorOf(t || ' '));
    for (let d = 0; d < 3; d++) expect(got.vectors[i * 3 + d]).toBeCloseTo(want[d]!, 6);
  });
}

const tick = () => new Promise((r) => setImmediate(r));

describe('embed queue', () => {
  it('questions that wait while a pass runs share the next pass, and each gets its own vector', async () => {
    const model = controlledModel();
    const queue = createEmbedQueue(model.pass);
    const first = queue.embed(['Where did you grow up?']);
    await tick();
    const waiting = ['Who was your father?', 'Any pets?', 'What is your boat called, and who built her?'].map((q) => queue.embed([q]));
    await tick();
    expect(model.passes).toEqual([['Where did you grow up?']]);
    await model.finishPass();
    expect(model.passes[1]).toEqual(['Who was your father?', 'Any pets?', 'What is your boat called, and who built her?']);
    await model.finishPass();
    expectVectors(await first, ['Where did you grow up?']);
    expectVectors(await waiting[0]!, ['Who was your father?']);
    expectVectors(await waiting[1]!, ['Any pets?']);
    expectVectors(await waiting[2]!, ['What is your boat called, and who built her?']);
    expect(model.passes).toHaveLength(2);
  });

  it("a question goes before a document's remaining texts, and the document's vectors stay in order", async () => {
    const model = controlledModel();
    const queue = createEmbedQueue(model.pass);
    const chunks = Array.from({ length: 20 }, (_, i) => `${String.fromCharCode(65 + i)} chunk ${'x'.repeat(i)}`);
    const document = queue.embed(chunks);
    await tick();
    expect(model.passes[0]).toEqual(chunks.slice(0, 8));
    const question = queue.embed(['When did you graduate?']);
    await model.finishPass();
    expect(model.passes[1]).toEqual(['When did you graduate?']);
    await model.finishPass();
    expectVectors(await question, ['When did you graduate?']);
    expect(model.passes[2]).toEqual(chunks.slice(8, 16));
    await model.finishPass();
    expect(model.passes[3]).toEqual(chunks.slice(16));
    await model.finishPass();
    expectVectors(await document, chunks);
  });

  it('a pass holds at most the limits: texts, and characters (a longer text goes alone)', async () => {
    const limits: EmbedQueueLimits = { texts: 4, chars: 100, documentTexts: 3 };
    const model = controlledModel();
    const queue = createEmbedQueue(model.pass, limits);
    const blocker = queue.embed(['first']);
    await tick();
    const questions = Array.from({ length: 6 }, (_, i) => queue.embed([`question ${i}`]));
    const long = queue.embed(['L'.repeat(150)]);
    const afterLong = queue.embed(['after']);
    await tick();
    for (let i = 0; i < 5; i++) await model.finishPass();
    expect(model.passes.map((p) => p.length)).toEqual([1, 4, 2, 1, 1]);
    expect(model.passes[2]).toEqual(['question 4', 'question 5']);
    expect(model.passes[3]).toEqual(['L'.repeat(150)]);
    await Promise.all([blocker, ...questions, long, afterLong]);
    // A document's passes: at most documentTexts texts, and within the characters.
    const doc = queue.embed(['a'.repeat(40), 'b'.repeat(40), 'c'.repeat(40), 'd', 'e', 'f', 'g']);
    await tick();
    for (let i = 0; i < 3; i++) await model.finishPass();
    expect(model.passes.slice(5).map((p) => p.length)).toEqual([2, 3, 2]);
    expectVectors(await doc, ['a'.repeat(40), 'b'.repeat(40), 'c'.repeat(40), 'd', 'e', 'f', 'g']);
  });

  it('a text that breaks a shared pass fails only its own request; the others are embedded on their own', async () => {
    const model = controlledModel((t) => t === 'breaks the model');
    const queue = createEmbedQueue(model.pass);
    const blocker = queue.embed(['first']);
    await tick();
    const good1 = queue.embed(['good one']);
    const bad = queue.embed(['breaks the model']);
    const good2 = queue.embed(['good two']);
    const badOutcome = bad.then(
      () => 'resolved',
      (e: Error) => e.message,
    );
    await tick();
    for (let i = 0; i < 5; i++) await model.finishPass();
    expect(model.passes).toEqual([['first'], ['good one', 'breaks the model', 'good two'], ['good one'], ['breaks the model'], ['good two']]);
    await blocker;
    expectVectors(await good1, ['good one']);
    expectVectors(await good2, ['good two']);
    expect(await badOutcome).toBe('the model failed');
  });

  it("a cancelled request is dropped at once: its remaining texts get no pass and its pass in flight is discarded", async () => {
    const model = controlledModel();
    const queue = createEmbedQueue(model.pass);
    const chunks = Array.from({ length: 20 }, (_, i) => `${String.fromCharCode(65 + i)} chunk`);
    const stop = new AbortController();
    const document = queue.embed(chunks, stop.signal);
    const outcome = document.then(
      () => 'resolved',
      (e: Error) => e.message,
    );
    await tick();
    expect(model.passes).toEqual([chunks.slice(0, 8)]);
    // Stopped while its first pass runs: the request ends now, not after the pass.
    stop.abort(new Error('server stopping'));
    expect(await outcome).toBe('server stopping');
    const question = queue.embed(['Who built the boat?']);
    await model.finishPass();
    // The next pass is the question's; none of the document's remaining texts is ever embedded.
    expect(model.passes[1]).toEqual(['Who built the boat?']);
    await model.finishPass();
    expectVectors(await question, ['Who built the boat?']);
    expect(model.passes).toHaveLength(2);
    // A request whose signal is already aborted gets no pass at all.
    await expect(queue.embed(['late'], stop.signal)).rejects.toThrow('server stopping');
    await tick();
    expect(model.passes).toHaveLength(2);
  });

  it('a question cancelled in a shared pass is dropped without disturbing the others in it', async () => {
    const model = controlledModel();
    const queue = createEmbedQueue(model.pass);
    const blocker = queue.embed(['first']);
    await tick();
    const leave = new AbortController();
    const kept = queue.embed(['kept question']);
    const left = queue.embed(['left question'], leave.signal);
    const leftOutcome = left.then(
      () => 'resolved',
      (e: Error) => e.message,
    );
    await model.finishPass();
    expect(model.passes[1]).toEqual(['kept question', 'left question']);
    leave.abort(new Error('gone'));
    await model.finishPass();
    await blocker;
    expectVectors(await kept, ['kept question']);
    expect(await leftOutcome).toBe('gone');
    expect(model.passes).toHaveLength(2);
  });

  it('an empty text is embedded as a space, and no texts is no pass', async () => {
    const model = controlledModel();
    const queue = createEmbedQueue(model.pass);
    expect((await queue.embed([])).vectors.length).toBe(0);
    const empty = queue.embed(['']);
    await tick();
    expect(model.passes).toEqual([[' ']]);
    await model.finishPass();
    expectVectors(await empty, ['']);
  });

  it('a model returning the wrong number of vectors fails the request instead of mixing vectors up', async () => {
    const queue = createEmbedQueue(async (texts) => texts.slice(1).map(vectorOf));
    await expect(queue.embed(['one', 'two'])).rejects.toThrow('the model returned 1 vectors for 2 texts');
  });
});
