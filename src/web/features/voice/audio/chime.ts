// The completion chime (spec section 9: about 0.2 s) that marks the end of a spoken reply: two
// soft sine notes made with Web Audio, so there is no file to fetch.
export function playChime(volume: number): Promise<void> {
  if (volume <= 0 || typeof AudioContext === 'undefined') return Promise.resolve();
  const ctx = new AudioContext();
  const gain = ctx.createGain();
  gain.connect(ctx.destination);
  const start = ctx.currentTime;
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(Math.max(0.0002, 0.25 * volume), start + 0.02);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.2);
  [880, 1318.5].forEach((frequency, i) => {
    const osc = ctx.createOscillator();
    osc.type = 'sine';
    osc.frequency.value = frequency;
    osc.connect(gain);
    osc.start(start + i * 0.08);
    osc.stop(start + 0.2);
  });
  return new Promise((resolve) => {
    setTimeout(() => {
      void ctx.close().catch(() => undefined);
      resolve();
    }, 260);
  });
}
