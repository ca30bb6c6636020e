/** How long a failing webhook is retried before it is disabled. */
export const FAILURE_WINDOW_MS = 24 * 3_600_000;

const FIRST_RETRY_MS = 1000;
const LONGEST_WAIT_MS = 3_600_000;

/** Doubling waits from a second, at most an hour apart: a receiver back within the day gets everything. */
export function retryDelayMs(attempts: number): number {
  return Math.min(LONGEST_WAIT_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1));
}
