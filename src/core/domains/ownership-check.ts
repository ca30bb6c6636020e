import type { DomainVerification } from './verification.ts';

export type OwnershipResult = { found: true } | { found: false; reason: string };

/**
 * One way of proving control of a name (a DNS TXT record, a file over HTTP). Implementations
 * are bounded in time and never throw: whatever goes wrong is a reason the proof was not found.
 */
export interface DomainOwnershipCheck {
  /** What the owner was asked to publish, for the message when it is missing. */
  describe(target: DomainVerification): string;
  check(target: DomainVerification): Promise<OwnershipResult>;
}

/** Whether new domains must prove control (DOMAIN_VERIFICATION), and the ways they may. */
export interface VerificationPolicy {
  required: boolean;
  checks: readonly DomainOwnershipCheck[];
}
