// An embedding service that hangs must not hold a person's reply: past EMBEDDING_QUERY_TIMEOUT_MS
// the question is answered from full-text search, as when the service fails outright.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/test-server';
import { startFakeOpenAI, type FakeOpenAI } from '../../../../tests/fakes/openai-fake';
import { chat, createPersonality, eventOf } from './conversations.test-support';
import { uploadOne, waitForDocument } from '../documents/documents.test-support';

let fake: FakeOpenAI;
let server: TestServer;
beforeAll(async () => {
  fake = await startFakeOpenAI({ dimensions: 64 });
  server = await startTestServer({
    env: { LLM_BASE_URL: fake.url, LLM_API_KEY: 'sk-test-key', EMBEDDING_MODEL: 'fake-embedding', JOB_POLL_MS: '50', EMBEDDING_QUERY_TIMEOUT_MS: '300' },
  });
});
afterAll(async () => {
  fake?.set({ hold: false });
  await server?.close();
  await fake?.close();
});

describe("the question's embedding", () => {
  it('is given up past its budget, and the reply goes ahead on full-text search', async () => {
    const owner = await server.user();
    const id = await createPersonality(owner, 'Vera Rubin');
    const doc = await uploadOne(owner, id, { name: 'observatory.txt', data: 'Through the telescope she watched distant galaxies turning slowly.' });
    await waitForDocument(owner, id, doc);
    const embeddingsBefore = fake.requests.length;
    fake.set({ hold: true });
    // The embeddings request below is held open for as long as the test runs: the reply that
    // arrives regardless did not wait for it.
    const res = await chat(owner, id, { message: 'What did she watch through the telescope?' });
    expect(fake.requests.length).toBeGreaterThan(embeddingsBefore);
    expect(eventOf(res, 'done')).toBeDefined();
    expect(JSON.stringify(eventOf(res, 'start')!.documentReferences)).toContain('observatory.txt');
    expect(server.logs.join('\n')).toMatch(/vector search failed; using full-text only.*embedding took longer than 300 ms/);
    fake.set({ hold: false });
  });
});
