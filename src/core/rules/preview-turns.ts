import { TooManyAttemptsError } from '../shared/errors.ts';

/** Previews one instance replays at once (docs/api.md §18): each holds a reader and a slice of the loop for seconds. */
export const PREVIEWS_PER_INSTANCE = 2;
/** What a refused caller waits before asking again: about one preview's time. */
const RETRY_AFTER_SECONDS = 5;

/**
 * Turns of the previews: one at a time per caller (a person, through any key or web session) and
 * PREVIEWS_PER_INSTANCE in all; beyond, a TooManyAttemptsError (429 `Too Many Attempts.` with
 * Retry-After), never a queue that would hold requests for the length of others' previews.
 */
export class PreviewTurns {
  private readonly running = new Set<string>();

  constructor(private readonly perInstance = PREVIEWS_PER_INSTANCE) {}

  async run<T>(caller: string, work: () => Promise<T>): Promise<T> {
    if (this.running.has(caller) || this.running.size >= this.perInstance)
      throw new TooManyAttemptsError(RETRY_AFTER_SECONDS);
    this.running.add(caller);
    try {
      return await work();
    } finally {
      this.running.delete(caller);
    }
  }
}
