/** Time as the key store sees it (expiry, transition windows, scheduled rotation); tests inject their own. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
