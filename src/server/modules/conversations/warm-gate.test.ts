// Chats opened faster than libraries load: one load at a time, the latest asked for waits, the
// ones in between are dropped, and a failed load frees the way.
import { describe, expect, it } from 'vitest';
import { oneWarmAtATime } from './warm-gate';

function controllable() {
  const calls: { scope: string; settle: (ok: boolean) => void }[] = [];
  const warm = (scope: string) =>
    new Promise<void>((resolve, reject) => calls.push({ scope, settle: (ok) => (ok ? resolve() : reject(new Error(`${scope} failed`))) }));
  return { calls, warm };
}
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('oneWarmAtATime', () => {
  it('runs one load at a time and then only the latest asked for meanwhile', async () => {
    const { calls, warm } = controllable();
    const errors: unknown[] = [];
    const gate = oneWarmAtATime(warm, (err) => errors.push(err));
    gate('a');
    gate('b');
    gate('c');
    gate('d');
    expect(calls.map((c) => c.scope)).toEqual(['a']);
    calls[0]!.settle(true);
    await tick();
    expect(calls.map((c) => c.scope)).toEqual(['a', 'd']);
    // A failure is reported and frees the way.
    calls[1]!.settle(false);
    await tick();
    expect(errors.map((e) => (e as Error).message)).toEqual(['d failed']);
    gate('e');
    expect(calls.map((c) => c.scope)).toEqual(['a', 'd', 'e']);
    calls[2]!.settle(true);
    await tick();
    expect(calls).toHaveLength(3);
    gate('f');
    expect(calls.map((c) => c.scope)).toEqual(['a', 'd', 'e', 'f']);
  });
});
