// Server-Timing for the voice and chat routes (open mic's latency budget): each phase of a request
// (rate limit, access check, speech-to-text, the prompt, speech) is reported in the response's
// Server-Timing header, so a browser's network panel or a benchmark sees where a turn's time goes.
import type { Context } from 'hono';
import { setMetric, timing } from 'hono/timing';

export const serverTiming = () => timing({ totalDescription: 'total' });

/** Runs `work` and records how long it took as the phase `name` (nothing when timing is off). */
export async function timed<T>(c: Context, name: string, work: () => Promise<T>): Promise<T> {
  if (!c.get('metric')) return work();
  const started = performance.now();
  try {
    return await work();
  } finally {
    setMetric(c, name, performance.now() - started);
  }
}
