// The Documents modal's live stream when the database stops answering: the stream ends without
// saying the personality is gone (which tells the browser to stop listening for good), so the
// browser's EventSource reconnects by itself once the database is back.
import { describe, expect, it } from 'vitest';
import { startTestServer } from '../../test-support/test-server';
import { createPersonality } from './documents.test-support';

describe('document stream during a database outage', () => {
  it('ends the stream without a "gone" event', async () => {
    const server = await startTestServer({ env: { DOCUMENT_STREAM_POLL_MS: '100' } });
    try {
      const owner = await server.user();
      const pid = await createPersonality(owner, 'Ada');
      const res = await owner.raw(`/api/personalities/${pid}/documents/events`);
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      let text = '';
      while (!text.includes('event: documents')) text += decoder.decode((await reader.read()).value, { stream: true });

      await server.database.close();
      const deadline = Date.now() + 10_000;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
        if (Date.now() > deadline) throw new Error('the stream did not end');
      }
      expect(text).not.toContain('event: gone');
    } finally {
      await server.close().catch(() => {});
    }
  });
});
