// The AttemptLimiter contract on the in-memory adapter and the core's counting fake. Redis's:
// test/integration/state/redis-state.test.ts.
import { MemoryAttemptLimiter } from '../../../src/adapters/state/memory-attempt-limiter.ts';
import { CountingLimiter } from '../../support/fakes/account-fakes.ts';
import { describeAttemptLimiterContract } from '../attempt-limiter-contract.ts';

describeAttemptLimiterContract('MemoryAttemptLimiter', {
  make: (policy) => new MemoryAttemptLimiter(policy),
  shared: false,
});
describeAttemptLimiterContract('CountingLimiter (fake)', {
  make: (policy) => new CountingLimiter(policy.max),
  shared: false,
  countsOnly: 'the fake counts without a clock: the sign-in tests need no window',
});
