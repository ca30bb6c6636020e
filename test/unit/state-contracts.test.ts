// The ClickQuota and RotationCursor contracts on the implementations that need no server: the
// memory adapters (one instance) and the in-memory fakes the core's unit tests use.
import { MemoryClickQuota } from '../../src/adapters/state/memory-click-quota.ts';
import { MemoryRotationCursor } from '../../src/adapters/state/memory-rotation-cursor.ts';
import { FakeQuota, FakeRotation } from '../support/fakes/visit-fakes.ts';
import { clickQuotaContract, rotationCursorContract, type Shared } from '../support/state-contracts.ts';

let next = 0;
const once = <T>(one: T): Shared<T> => ({ a: one, b: one, link: async () => ++next });

clickQuotaContract('MemoryClickQuota', () => once(new MemoryClickQuota()));
clickQuotaContract('FakeQuota (at once)', () => once(new FakeQuota()));
clickQuotaContract('FakeQuota (through promises)', () => once(new FakeQuota(true)));
rotationCursorContract('MemoryRotationCursor', () => once(new MemoryRotationCursor()));
rotationCursorContract('FakeRotation (at once)', () => once(new FakeRotation()));
rotationCursorContract('FakeRotation (through promises)', () => once(new FakeRotation(true)));
