/** How long work over many items keeps the event loop before it lets other callbacks in: well under a /health probe's budget, long enough that yielding costs little. */
const SLICE_MS = 4;

/**
 * Work over many items cut into slices of the event loop's time (docs/design/event-loop.md): the
 * loop asks `due()` per item and awaits `pause()` when it is, which lets every waiting request
 * (I/O included, as setImmediate runs after it) in before the next slice.
 */
export class LoopSlices {
  private started = performance.now();

  due(): boolean {
    return performance.now() - this.started >= SLICE_MS;
  }

  async pause(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    this.started = performance.now();
  }
}
