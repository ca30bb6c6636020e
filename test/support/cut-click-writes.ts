import type { ClickWrites } from '../../src/adapters/clicks/writer/click-writes.ts';
import type { WriterBatch } from '../../src/adapters/clicks/thread/worker-messages.ts';

export interface CutState {
  /** Every call is refused, as a cut database refuses it. */
  away: boolean;
  /** The next write of a batch `losesAnswer` picks commits, then rejects, as a lost answer does. */
  loseNextAnswer: boolean;
}

/**
 * The real click writes behind a switch a test flips: refused while `away` (as a cut database
 * does), and with the answer of the next picked write lost after its COMMIT went through.
 */
export function cuttable(
  real: ClickWrites,
  losesAnswer: (batch: WriterBatch) => boolean = () => true,
): { writes: ClickWrites; state: CutState } {
  const state: CutState = { away: false, loseNextAnswer: false };
  const gate = <T>(call: () => Promise<T>) =>
    state.away ? Promise.reject(new Error('Connection terminated unexpectedly')) : call();
  const writes: ClickWrites = {
    writeRows: (batch) =>
      gate(async () => {
        const written = await real.writeRows(batch);
        if (!state.loseNextAnswer || !losesAnswer(batch)) return written;
        state.loseNextAnswer = false;
        throw new Error('Connection terminated unexpectedly (after the COMMIT went through)');
      }),
    committed: (batch, since) => gate(() => real.committed(batch, since)),
    segmentWritten: (id) => gate(() => real.segmentWritten(id)),
    writeWindow: (window, totals, pending) => gate(() => real.writeWindow(window, totals, pending)),
    close: () => real.close(),
  };
  return { writes, state };
}

/** The writes, the first writeRows of which commits and then rejects, as a lost answer does. */
export function losingFirstAnswer(real: ClickWrites): ClickWrites {
  const { writes, state } = cuttable(real);
  state.loseNextAnswer = true;
  return writes;
}
