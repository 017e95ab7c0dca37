// GET /api/personalities/{id}/documents/events: Server-Sent Events for the owner's Documents
// modal. Event "documents" carries the whole list (documentListSchema) whenever it changes: at
// once on connect, on every change made in this process, and at least every 2 s from the database
// (jobs run by other processes). A comment line every 25 s keeps proxies from closing it; after
// 10 minutes the server ends it and EventSource reconnects. Polling the list route is the fallback.
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { AppEnv } from '../../auth/session';
import { requireViewer } from '../../auth/session';
import { limits } from '../../../shared/limits';
import type { DocumentsModule } from './documents.module';

const HEARTBEAT_MS = 25_000;
const MAX_STREAM_MS = 10 * 60_000;
const MIN_GAP_MS = 250;

export function documentEventsHandler(documents: DocumentsModule) {
  const { service, events, streamClosers } = documents;
  return async (c: Context<AppEnv>) => {
    const viewer = requireViewer(c.get('viewer'));
    const personalityId = c.req.param('id') ?? '';
    await service.ownedPersonality(viewer, personalityId);
    c.header('Cache-Control', 'no-cache');
    c.header('X-Accel-Buffering', 'no');
    return streamSSE(c, async (stream) => {
      let closed = false;
      let dirty = true;
      let wake: () => void = () => {};
      const poke = () => {
        dirty = true;
        wake();
      };
      const close = () => {
        closed = true;
        wake();
      };
      const unsubscribe = events.subscribe(personalityId, poke);
      streamClosers.add(close);
      stream.onAbort(close);
      const started = Date.now();
      let lastBeat = Date.now();
      let last = '';
      try {
        while (!closed && Date.now() - started < MAX_STREAM_MS) {
          if (dirty) {
            dirty = false;
            // Re-checked each time: a personality deleted (or given away) ends the stream.
            const still = await service.ownedPersonality(viewer, personalityId).then(
              () => true,
              () => false,
            );
            if (!still) {
              await stream.writeSSE({ event: 'gone', data: '{}' });
              break;
            }
            const json = JSON.stringify({ documents: await service.listForStream(personalityId) });
            if (json !== last) {
              last = json;
              await stream.writeSSE({ event: 'documents', data: json });
              lastBeat = Date.now();
            }
            await stream.sleep(MIN_GAP_MS);
          }
          if (Date.now() - lastBeat >= HEARTBEAT_MS) {
            await stream.write(': keep-alive\n\n');
            lastBeat = Date.now();
          }
          await new Promise<void>((resolve) => {
            const timer = setTimeout(() => {
              dirty = true;
              resolve();
            }, limits.documentPollMs);
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
            if (closed || dirty) wake();
          });
        }
      } finally {
        unsubscribe();
        streamClosers.delete(close);
      }
    });
  };
}
