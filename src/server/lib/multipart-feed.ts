// Feeds a request body to a multipart parser (busboy) as it arrives, counting bytes: past the cap
// it stops reading at once so the caller can answer 413 without taking in the rest. The parser's
// own back-pressure (a file part nobody has read yet) pauses the reading, so an upload streamed on
// to storage moves at storage's pace and is never queued up in memory.
import type Busboy from 'busboy';

export type FeedResult = 'done' | 'too-large' | 'malformed';

export async function feedMultipart(reader: ReadableStreamDefaultReader<Uint8Array>, busboy: Busboy.Busboy, maxBytes: number): Promise<FeedResult> {
  const finished = new Promise<void>((resolve, reject) => {
    busboy.on('close', resolve);
    busboy.on('error', reject);
  });
  finished.catch(() => {});
  // A body cut off inside a file part (a closed tab, a dropped connection) makes busboy emit
  // "Unexpected end of file" on that part's stream; unheard, it would throw and end the process.
  // The caller's own listeners still hear it; this one only keeps it from being unheard.
  busboy.on('file', (_field, stream) => stream.on('error', () => {}));
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        busboy.destroy();
        return 'too-large';
      }
      // A parser error while waiting for room ends the wait too.
      if (!busboy.write(value)) await Promise.race([new Promise((r) => busboy.once('drain', r)), finished]);
    }
    busboy.end();
    await finished;
    return 'done';
  } catch {
    busboy.destroy();
    return 'malformed';
  }
}
