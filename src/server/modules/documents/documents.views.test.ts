// What the Documents modal and the source view read: the list's statuses, the chunk viewer's
// pages, the source view's states and messages, and the live stream.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/test-server';
import { personalityDocuments } from '../../db/schema/documents';
import { insertDocument } from './documents.repository';
import { messages } from '../../../shared/messages';
import { documentStatusLabel } from '../../../shared/schemas/documents';
import { createPersonality, uploadOne, waitForDocument } from './documents.test-support';

let server: TestServer;
let owner: Awaited<ReturnType<TestServer['user']>>;
let pid: string;
beforeAll(async () => {
  server = await startTestServer({ env: { JOB_POLL_MS: '50', CHUNK_SIZE: '100', CHUNK_OVERLAP: '0' } });
  owner = await server.user();
  pid = await createPersonality(owner, 'Ada');
});
afterAll(async () => {
  await server?.close();
});

const sentences = Array.from({ length: 30 }, (_, i) => `This is sentence number ${i} of a long document about engines.`).join(' ');

/** Reads SSE events from the owner's live stream until `until` says stop. */
async function readEvents(until: (docs: any[]) => boolean, timeoutMs = 30_000): Promise<any[][]> {
  const res = await owner.raw(`/api/personalities/${pid}/documents/events`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const seen: any[][] = [];
  let buffer = '';
  const deadline = Date.now() + timeoutMs;
  try {
    while (Date.now() < deadline) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let idx;
      while ((idx = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, idx);
        buffer = buffer.slice(idx + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event === 'documents' && data) {
          const docs = JSON.parse(data).documents;
          seen.push(docs);
          if (until(docs)) return seen;
        }
      }
    }
    throw new Error(`stream ended without the expected state: ${JSON.stringify(seen.at(-1))}`);
  } finally {
    await reader.cancel();
  }
}

describe('documents views', () => {
  it('streams the list live while a document is processed', async () => {
    const events = readEvents((docs) => docs.some((d) => d.fileName === 'live.txt' && d.status === 'ready'));
    await new Promise((r) => setTimeout(r, 300));
    await uploadOne(owner, pid, { name: 'live.txt', data: sentences });
    const seen = await events;
    expect(seen[0]).toEqual([]); // the state at connect time
    const states = seen.flatMap((docs) => docs.filter((d: any) => d.fileName === 'live.txt').map((d: any) => d.status));
    expect(states).toContain('processing');
    expect(states.at(-1)).toBe('ready');
    const final = seen.at(-1)!.find((d: any) => d.fileName === 'live.txt');
    expect(final).toMatchObject({ progress: 100, error: null, hasContent: true });
    expect(documentStatusLabel(final)).toBe('Ready');
    expect(documentStatusLabel({ status: 'processing', progress: 40 })).toBe('Processing 40%');
  });

  it('lists newest first with the spec statuses', async () => {
    const db = server.database.db;
    // Distinct upload times, a second apart: two rows written in the same instant (the embedded
    // database's clock can give two statements one timestamp) have no "newest" between them.
    const now = Date.now();
    await db.insert(personalityDocuments).values({ personalityId: pid, fileName: 'no-content.txt', createdAt: new Date(now + 1000) });
    await insertDocument(db, { personalityId: pid, fileName: 'unchunked.txt', content: 'Some words.', createdAt: new Date(now + 2000) });
    const list = (await owner.get(`/api/personalities/${pid}/documents`)).body.documents;
    expect(list.map((d: any) => [d.fileName, d.status, documentStatusLabel(d)])).toEqual([
      ['unchunked.txt', 'needs_chunking', 'Needs Chunking'],
      ['no-content.txt', 'needs_processing', 'Needs Processing'],
      ['live.txt', 'ready', 'Ready'],
    ]);
    const unchunked = list[0];
    const res = await owner.post(`/api/personalities/${pid}/documents/${unchunked.id}/rechunk`);
    expect(res.status).toBe(202);
    expect((await waitForDocument(owner, pid, unchunked.id)).chunkCount).toBe(1);
    const noContent = list[1];
    const bad = await owner.post(`/api/personalities/${pid}/documents/${noContent.id}/rechunk`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe(messages.documents.noContentToChunk);
  });

  it('pages through chunks in order for the chunk viewer', async () => {
    const id = (await owner.get(`/api/personalities/${pid}/documents`)).body.documents.find((d: any) => d.fileName === 'live.txt').id;
    const all = await owner.get(`/api/personalities/${pid}/documents/${id}/chunks`);
    expect(all.body.total).toBeGreaterThan(10);
    expect(all.body.chunks.map((c: any) => c.chunkIndex)).toEqual(Array.from({ length: all.body.total }, (_, i) => i));
    const page = await owner.get(`/api/personalities/${pid}/documents/${id}/chunks?offset=5&limit=3`);
    expect(page.body).toMatchObject({ offset: 5, limit: 3, total: all.body.total });
    expect(page.body.chunks.map((c: any) => c.chunkIndex)).toEqual([5, 6, 7]);
    expect((await owner.get(`/api/personalities/${pid}/documents/${id}/chunks?limit=100000`)).status).toBe(400);
    expect((await owner.get(`/api/personalities/${pid}/documents/not-a-uuid/chunks`)).status).toBe(404);
  });

  it('answers the source view with the referenced chunk, a missing one, or an unprocessed document', async () => {
    const docs = (await owner.get(`/api/personalities/${pid}/documents`)).body.documents;
    const live = docs.find((d: any) => d.fileName === 'live.txt');
    const ok = await owner.get(`/api/personalities/${pid}/documents/${live.id}/source?chunk=3`);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      personality: { id: pid, name: 'Ada' },
      document: { id: live.id, fileName: 'live.txt', isPrivate: false, chunkCount: live.chunkCount },
      state: 'ready',
      referencedChunkIndex: 3,
      referencedAvailable: true,
      message: null,
    });
    expect(ok.body.chunks.some((c: any) => c.chunkIndex === 3)).toBe(true);
    expect(messages.documents.sourceTitle('Ada')).toBe('Source document for Ada');

    const gone = await owner.get(`/api/personalities/${pid}/documents/${live.id}/source?chunk=9999`);
    expect(gone.body).toMatchObject({ state: 'ready', referencedAvailable: false, message: 'Unable to load chunk: This referenced chunk is not available.' });

    const noContent = docs.find((d: any) => d.fileName === 'no-content.txt');
    const pending = await owner.get(`/api/personalities/${pid}/documents/${noContent.id}/source?chunk=0`);
    expect(pending.body).toMatchObject({
      state: 'not_processed',
      chunks: [],
      message: "This document hasn't been processed yet. Ask the owner to process it to view chunks.",
    });

    const missing = await owner.get(`/api/personalities/${pid}/documents/00000000-0000-4000-8000-000000000000/source?chunk=0`);
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe(messages.documents.chunkUnavailable);
  });

  it('toggles privacy and validates the body', async () => {
    const live = (await owner.get(`/api/personalities/${pid}/documents`)).body.documents.find((d: any) => d.fileName === 'live.txt');
    const on = await owner.patch(`/api/personalities/${pid}/documents/${live.id}`, { isPrivate: true });
    expect(on.body.document.isPrivate).toBe(true);
    const off = await owner.patch(`/api/personalities/${pid}/documents/${live.id}`, { isPrivate: false });
    expect(off.body.document.isPrivate).toBe(false);
    expect((await owner.patch(`/api/personalities/${pid}/documents/${live.id}`, { isPrivate: 'yes' })).status).toBe(400);
    expect((await owner.patch(`/api/personalities/${pid}/documents/${live.id}`, { isPrivate: true, extra: 1 })).status).toBe(400);
  });
});
