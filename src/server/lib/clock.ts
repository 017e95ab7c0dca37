// Injected so tests can move time (rate-limit windows, ages) without sleeping.
export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };
