import type { AuditActor } from '../../src/core/audit/audit-entry.ts';

/** The actor of changes a test makes straight through a service (the operator's door: no person, no key). */
export const TEST_ACTOR: AuditActor = { userId: null, keyId: null, via: 'cli' };
