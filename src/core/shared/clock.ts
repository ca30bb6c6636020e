/** Time as a port so rules that depend on "now" can be tested at any instant. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
