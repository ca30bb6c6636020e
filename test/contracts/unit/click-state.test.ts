// The ClickQuota and RotationCursor contracts on the implementations that need no server: the
// memory adapters (one instance) and the in-memory fakes the core's unit tests use. Redis's:
// test/integration/state/redis-state.test.ts.
import { MemoryClickQuota } from '../../../src/adapters/state/memory-click-quota.ts';
import { MemoryRotationCursor } from '../../../src/adapters/state/memory-rotation-cursor.ts';
import { FakeQuota, FakeRotation } from '../../support/fakes/visit-fakes.ts';
import { describeClickQuotaContract, describeRotationCursorContract, type Shared } from '../click-state-contracts.ts';

let next = 0;
const once = <T>(one: T): Shared<T> => ({ a: one, b: one, link: async () => ++next });

describeClickQuotaContract('MemoryClickQuota', () => once(new MemoryClickQuota()));
describeClickQuotaContract('FakeQuota (at once)', () => once(new FakeQuota()));
describeClickQuotaContract('FakeQuota (through promises)', () => once(new FakeQuota(true)));
describeRotationCursorContract('MemoryRotationCursor', () => once(new MemoryRotationCursor()));
describeRotationCursorContract('FakeRotation (at once)', () => once(new FakeRotation()));
describeRotationCursorContract('FakeRotation (through promises)', () => once(new FakeRotation(true)));
