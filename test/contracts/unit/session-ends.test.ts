// The SessionEnds contract on one instance (no Redis); Redis's: test/integration/state/session-ends.test.ts.
import { MemorySessionEnds } from '../../../src/adapters/live/memory-session-ends.ts';
import { describeSessionEndsContract } from '../session-ends-contract.ts';

describeSessionEndsContract('MemorySessionEnds', () => {
  const ends = new MemorySessionEnds(() => {});
  return { a: ends, b: ends };
});
