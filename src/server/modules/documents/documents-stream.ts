// GET /api/personalities/{id}/documents/events: Server-Sent Events for the owner's Documents
// modal. Event "documents" carries the whole list (documentListSchema) whenever it changes: at
// once on connect, on every change (made in this process, or in another one and told through
// LISTEN/NOTIFY), and at least every DOCUMENT_STREAM_POLL_MS (2 s) from the database. A comment line every 25 s keeps proxies from closing it; after
// 10 minutes the server ends it and EventSource reconnects. Polling the list route is the fallback.
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { AppEnv } from '../../auth/session';
import { requireViewer } from '../../auth/session';
import type { DocumentsModule } from './documents.module';
import { AppError } from '../../lib/errors';
import { messages } from '../../../shared/messages';
import { clientLimitKey } from '../../security/client-address';
import { createOpenCounts } from '../../security/open-counts';

const HEARTBEAT_MS = 25_000;
const MAX_STREAM_MS = 10 * 60_000;
const MIN_GAP_MS = 250;

/** Open streams per user and per client address in this process (each holds a socket and a loop). */
const openStreams = createOpenCounts();

export function documentEventsHandler(documents: DocumentsModule, maxStreamsPerClient: number) {
  const { service, events, streamClosers } = documents;
  return async (c: Context<AppEnv>) => {
    const viewer = requireViewer(c.get('viewer'));
    const personalityId = c.req.param('id') ?? '';
    await service.ownedPersonality(viewer, personalityId);
    const release = openStreams.hold([`user:${viewer.id}`, `ip:${clientLimitKey(c)}`], maxStreamsPerClient);
    if (!release) throw new AppError('RATE_LIMITED', messages.errors.tooManyStreams);
    const sessionStillValid = c.get('sessionStillValid');
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
            // Re-checked each time: a personality deleted (or given away) ends the stream. A
            // database that failed to answer is not "gone": the stream just ends, and the
            // browser's EventSource reconnects on its own once it answers again (a 'gone' told it
            // to stop listening for good during an outage).
            const still = await service.ownedPersonality(viewer, personalityId).then(
              () => 'yes' as const,
              (err: unknown) => (err instanceof AppError && (err.code === 'NOT_FOUND' || err.code === 'FORBIDDEN') ? ('no' as const) : ('unknown' as const)),
            );
            if (still === 'unknown') break;
            if (still === 'no') {
              await stream.writeSSE({ event: 'gone', data: '{}' });
              break;
            }
            // A stream outlives no sign-out or revoked session: checked at every poll (2 s).
            if (!(await sessionStillValid().catch(() => false))) {
              await stream.writeSSE({ event: 'signed-out', data: '{}' });
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
            }, documents.streamPollMs);
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
        release();
      }
    });
  };
}
