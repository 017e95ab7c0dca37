// The chime during an open-mic call: it plays through the call's own context (never a new one,
// never closing the call's), and stop() silences it at once and releases whoever waits on it, so
// a barge-in during the chime is not held for its 260 ms.
import { describe, expect, it, vi } from 'vitest';
import { playChime } from './chime';

function fakeContext() {
  const oscillators: { stop: ReturnType<typeof vi.fn> }[] = [];
  const param = { setValueAtTime: vi.fn(), exponentialRampToValueAtTime: vi.fn(), value: 0 };
  const ctx = {
    currentTime: 0,
    destination: {},
    close: vi.fn(async () => {}),
    createGain: () => ({ gain: param, connect: vi.fn(), disconnect: vi.fn() }),
    createOscillator: () => {
      const osc = { type: '', frequency: { value: 0 }, connect: vi.fn(), start: vi.fn(), stop: vi.fn() };
      oscillators.push(osc);
      return osc;
    },
  };
  return { ctx: ctx as unknown as AudioContext, close: ctx.close, oscillators };
}

describe('playChime', () => {
  it("plays through the call's context and leaves it open", async () => {
    vi.useFakeTimers();
    try {
      const call = fakeContext();
      const chime = playChime(1, call.ctx);
      expect(call.oscillators).toHaveLength(2);
      await vi.advanceTimersByTimeAsync(260);
      await chime.done;
      expect(call.close).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });

  it('stop() silences both notes and settles at once, without waiting 260 ms', async () => {
    vi.useFakeTimers();
    try {
      const call = fakeContext();
      const chime = playChime(1, call.ctx);
      let settled = false;
      void chime.done.then(() => (settled = true));
      chime.stop();
      await vi.advanceTimersByTimeAsync(0);
      expect(settled).toBe(true);
      // stop(when) is scheduled at start; the barge-in's stop() has no time argument.
      for (const osc of call.oscillators) expect(osc.stop).toHaveBeenLastCalledWith();
    } finally {
      vi.useRealTimers();
    }
  });

  it('is silent (and done) when muted', async () => {
    const call = fakeContext();
    await playChime(0, call.ctx).done;
    expect(call.oscillators).toHaveLength(0);
  });
});
