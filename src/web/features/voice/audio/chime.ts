// The completion chime (spec section 9: about 0.2 s) that marks the end of a spoken reply: two
// soft sine notes made with Web Audio, so there is no file to fetch. During an open-mic call it
// plays through the call's running context (a new AudioContext per chime took time to start and
// was never stopped); stop() silences it at once and settles `done` (barge-in, a new reply).
export interface Chime {
  done: Promise<void>;
  stop(): void;
}

const CHIME_MS = 260;

export function playChime(volume: number, callContext?: AudioContext | null): Chime {
  if (volume <= 0 || (!callContext && typeof AudioContext === 'undefined')) return { done: Promise.resolve(), stop: () => {} };
  const ctx = callContext ?? new AudioContext();
  const gain = ctx.createGain();
  gain.connect(ctx.destination);
  const start = ctx.currentTime;
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(Math.max(0.0002, 0.25 * volume), start + 0.02);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.2);
  const notes = [880, 1318.5].map((frequency, i) => {
    const osc = ctx.createOscillator();
    osc.type = 'sine';
    osc.frequency.value = frequency;
    osc.connect(gain);
    osc.start(start + i * 0.08);
    osc.stop(start + 0.2);
    return osc;
  });
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    const timer = setTimeout(() => finish(), CHIME_MS);
    finish = () => {
      finish = () => {};
      clearTimeout(timer);
      gain.disconnect();
      // Only a context made for this chime is closed; the call's own keeps playing the call.
      if (!callContext) void ctx.close().catch(() => undefined);
      resolve();
    };
  });
  return {
    done,
    stop: () => {
      for (const osc of notes) {
        try {
          osc.stop();
        } catch {
          // Not started yet or already stopped.
        }
      }
      finish();
    },
  };
}
